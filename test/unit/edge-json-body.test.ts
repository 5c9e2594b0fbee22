// The JSON body reader of both apps (koa-body under the edge's own checks), over a real socket: the
// size limit, the content type, malformed and too deeply nested JSON, the text rule and a repeated key
// are each a 400 in the envelope with the message the service always gave; a good body arrives parsed.
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edge, jsonBody } from '../../src/http/edge.js';
import { createLogger } from '../../src/runtime/log.js';

const LIMIT = 200;
let server: ReturnType<Koa['listen']>;
let url: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(edge(createLogger('silent')));
  app.use(jsonBody(LIMIT));
  app.use((ctx) => {
    ctx.body = { received: ctx.request.body ?? null };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function post(
  body: string | Uint8Array | ReadableStream<Uint8Array> | undefined,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(url, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { status: res.status, body: (await res.json()) as any };
}

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 50) controller.enqueue(bytes.slice(i, i + 50));
      controller.close();
    },
  });
}

const refused = (message: string | RegExp, param?: string) => ({
  status: 400,
  body: {
    success: false,
    error: {
      code: 'invalid_request',
      message: typeof message === 'string' ? message : expect.stringMatching(message),
      ...(param ? { param } : {}),
    },
    requestId: expect.stringMatching(/^req_/),
  },
});

describe('jsonBody', () => {
  it('parses a JSON body, plain or gzip-encoded, and leaves an empty one undefined', async () => {
    expect(await post(JSON.stringify({ a: [1, 'ç'] }))).toEqual({ status: 200, body: { received: { a: [1, 'ç'] } } });
    expect(await post(gzipSync(JSON.stringify({ z: true })), { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toEqual({
      status: 200,
      body: { received: { z: true } },
    });
    expect(await post(undefined)).toEqual({ status: 200, body: { received: null } });
  });

  it('refuses a body over the limit, announced or streamed', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(LIMIT) });
    expect(await post(big)).toEqual(refused(`O corpo excede o limite de ${LIMIT} bytes`));
    expect(await post(chunked(big))).toEqual(refused(`O corpo excede o limite de ${LIMIT} bytes`));
  });

  it('refuses another content type, malformed or too deeply nested JSON, a forbidden character and a repeated key naming the field', async () => {
    expect(await post('{"a":1}', { 'content-type': 'text/plain' })).toEqual(
      refused('O corpo deve ser JSON (Content-Type: application/json)'),
    );
    expect(await post('{"a":')).toEqual(refused('JSON malformado no corpo da requisição'));
    expect(await post('['.repeat(40) + ']'.repeat(40))).toEqual(refused(/aninhado demais/));
    expect(await post(JSON.stringify({ payer: { name: 'a\u0000b' } }))).toEqual(
      refused(/Campo \/payer\/name contém caractere não permitido/, '/payer/name'),
    );
    expect(await post('{"payer":{"name":"a","n\\u0061me":"b"}}')).toEqual(refused(/^Campo \/payer\/name repetido no corpo/, '/payer/name'));
  });

  it('refuses a Content-Encoding it cannot read', async () => {
    expect(await post('{}', { 'content-type': 'application/json', 'content-encoding': 'compress' })).toEqual(
      refused(/Content-Encoding não suportado/),
    );
  });
});
