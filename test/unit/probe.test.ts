// poll() against a tiny local HTTP server answering a script of statuses: it reads again only the
// answers named "not yet", and fails at once, with the answer's text, on a 5xx or any other status.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { poll } from '../helpers/probe.js';
import { http } from '../helpers/stack.js';

let server: Server | undefined;

/** A server answering the i-th request with `script[i]` (the last one again after the end); counts the requests. */
async function scripted(script: Array<{ status: number; body: unknown }>) {
  const served = { requests: 0 };
  server = createServer((_req, res) => {
    const answer = script[Math.min(served.requests, script.length - 1)]!;
    served.requests += 1;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`;
  return { read: () => http('GET', url), served };
}

const approved = (res: { body: { status: string } }) => (res.body.status === 'approved' ? res.body : undefined);

afterEach(async () => {
  server?.close();
  server = undefined;
});

describe('poll', () => {
  it('reads again on the statuses named "not yet" and on a 200 whose state is not yet wanted, and returns the wanted one', async () => {
    const { read, served } = await scripted([
      { status: 404, body: { error: { code: 'not_found' } } },
      { status: 202, body: { status: 'pending' } },
      { status: 200, body: { status: 'pending' } },
      { status: 200, body: { status: 'approved' } },
    ]);
    expect(await poll(read, approved, { notYet: [202, 404], everyMs: 1 })).toEqual({ status: 'approved' });
    expect(served.requests).toBe(4);
  });

  it('fails at once on a 500, with its text, however long it may wait', async () => {
    const { read, served } = await scripted([
      { status: 202, body: { status: 'pending' } },
      { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } },
      { status: 200, body: { status: 'approved' } },
    ]);
    await expect(poll(read, approved, { notYet: [202], timeoutMs: 30_000, everyMs: 1 })).rejects.toThrow(
      'unexpected answer 500 while polling: {"error":{"code":"internal_error","message":"boom"}}',
    );
    // At once: the 500 was the last answer read, though the next one would have been the wanted state.
    expect(served.requests).toBe(2);
  });

  it('fails at once on a status the call did not name, a 404 included', async () => {
    const { read, served } = await scripted([{ status: 404, body: { error: { code: 'not_found' } } }]);
    await expect(poll(read, approved, { notYet: [202], timeoutMs: 30_000 })).rejects.toThrow('unexpected answer 404');
    expect(served.requests).toBe(1);
  });

  it('reads again on an answer the call tests as "not yet", and fails at once on the same status otherwise', async () => {
    const notArrived = { status: 409, body: { error: { message: 'ainda não chegou à rede' } } };
    const otherOutcome = { status: 409, body: { error: { message: 'já foi concluída' } } };
    const { read, served } = await scripted([notArrived, notArrived, otherOutcome]);
    const arriving = (res: { status: number; text: string }) => res.status === 409 && res.text.includes('ainda não chegou');
    await expect(poll(read, approved, { notYet: arriving, timeoutMs: 30_000, everyMs: 1 })).rejects.toThrow(
      'unexpected answer 409 while polling: {"error":{"message":"já foi concluída"}}',
    );
    expect(served.requests).toBe(3);
  });

  it('names the last answer when the wanted state does not come in time', async () => {
    const { read } = await scripted([{ status: 200, body: { status: 'pending' } }]);
    await expect(poll(read, approved, { timeoutMs: 50, everyMs: 1 })).rejects.toThrow(
      'condition not met within 50 ms; last answer 200: {"status":"pending"}',
    );
  });
});
