// Personal data never reaches the logs through an error: a charge whose persistence fails in
// PostgreSQL (the failing row, with the payer's name, document and e-mail, is in the error's
// `detail`) is logged by the worker's "Activity failed" warning through the Temporal SDK's logger
// (once: a data error is not retried); the engine's output holds the error's SQLSTATE and constraint, and no payer data.
// The codec UI's secret path (CODEC_UI_SECRET) is in no access log line, whatever near miss of it a caller sends.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { chargeBody, postCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';

const PAYER = { name: 'Joana Registro Falho', document: '111.444.777-35', email: 'joana.falha@example.com' };
const LEAKS = [PAYER.name, 'Joana', 'Registro Falho', PAYER.document, '11144477735', PAYER.email, 'joana.falha'];

describe('log redaction of errors', () => {
  const live = liveStack();

  it('logs a failing activity with a payer without the payer name, document or e-mail', async () => {
    const { client } = await createMerchant(live.stack);
    // A first charge warms the engine up, so that the refusal below comes within ACCEPT_WAIT_MS (5 s by default).
    expect((await postCharge(client, chargeBody())).status).toBe(201);
    // A constraint the payer's row violates: PostgreSQL answers 23514 with "Failing row contains (…)" as detail.
    await live.sql.unsafe(`alter table transactions add constraint test_payer_refused check (payer->>'name' <> '${PAYER.name}') not valid`);
    // A data error ends the accept step for good (no retries): the request is refused, nothing kept.
    const res = await postCharge(client, chargeBody({ payer: PAYER }));
    expect([res.status, res.body.error?.code], res.text).toEqual([400, 'invalid_request']);

    const engine = live.stack.processes[0]!;
    const failures = await eventually(() => {
      const lines = engine
        .output()
        .split('\n')
        .filter((line) => line.includes('"Activity failed"'));
      return lines.length > 0 ? lines : undefined;
    }, 30_000);
    for (const line of failures) {
      expect(line).toContain('23514');
      expect(line).toContain('test_payer_refused');
    }
    for (const leaked of LEAKS) expect(engine.output()).not.toContain(leaked);
  });
});

/** A POST of exactly `path` (fetch would normalise it), answered with its status. */
function postRaw(origin: string, path: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end('{"payloads":[]}');
  });
}

describe('log redaction of the codec UI secret', () => {
  const secret = `ui-${randomBytes(20).toString('hex')}`;
  const live = liveStack({ env: { CODEC_UI_SECRET: secret } });

  it('logs no path holding the secret, for the right path and its near misses', async () => {
    const origin = new URL(live.stack.adminUrl).origin;
    const paths = [
      `/codec/ui/${secret}/decode`,
      `/codec/ui/${secret}/decode/`,
      `/CODEC/ui/${secret}/decode`,
      `/codec//ui/${secret}/decode`,
      `/codec/UI/${secret}/encode`,
      `/codec/ui${secret}/decode`,
      `/codec/ui/${secret}`,
      `/codec/ui/${secret.slice(0, -1)}/decode`,
      `/%63odec/ui/${secret}/decode`,
      `/codec/ui/${secret}%00/decode`,
      `/admin/${secret}`,
      `/${secret}`,
    ];
    const statuses = [];
    for (const path of paths) statuses.push(await postRaw(origin, path));
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(1).every((status) => status >= 400)).toBe(true);
    const engine = live.stack.processes[0]!;
    const requests = await eventually(() => {
      const lines = engine
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"') && /"method":"POST"/.test(line));
      return lines.length >= paths.length ? lines : undefined;
    });
    expect(requests.some((line) => line.includes('"path":"/codec/ui/…/decode"'))).toBe(true);
    expect(engine.output()).not.toContain(secret);
    expect(engine.output()).not.toContain(secret.slice(3, 30)); // nor most of it (the mistyped one)
  });
});
