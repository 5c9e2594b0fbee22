import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: createLogger('info', stream), text: () => lines.join('') };
}

describe('log redaction', () => {
  it('removes payer documents, e-mails, names and API keys at any depth', () => {
    const { log, text } = capture();
    const secret = 'pix_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    log.info({ payer: { name: 'Maria Souza', document: '52998224725', email: 'maria@example.com' } }, 'charge');
    log.info({ body: { data: { payer: { document: '52998224725' } } } }, 'nested');
    log.info({ req: { headers: { authorization: `Bearer ${secret}` } } }, 'headers');
    log.info({ apiKey: secret, secret: 'whsec_1234567890', email: 'x@example.com', document: '11222333000181' }, 'top');
    const out = text();
    for (const leaked of ['52998224725', 'maria@example.com', 'Maria Souza', secret, 'whsec_1234567890', 'x@example.com', '11222333000181']) {
      expect(out).not.toContain(leaked);
    }
    expect(out.split('\n').filter(Boolean)).toHaveLength(4);
    expect(out).toContain('[redacted]');
  });
});
