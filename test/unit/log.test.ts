import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/runtime/log.js';

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
    for (const leaked of [
      '52998224725',
      'maria@example.com',
      'Maria Souza',
      secret,
      'whsec_1234567890',
      'x@example.com',
      '11222333000181',
    ]) {
      expect(out).not.toContain(leaked);
    }
    expect(out.split('\n').filter(Boolean)).toHaveLength(4);
    expect(out).toContain('[redacted]');
  });
});

/** An error shaped as the `postgres` driver throws it: the failing values are in its message, detail, where, query and parameters. */
function postgresError(): Error {
  return Object.assign(new Error('invalid input syntax for type integer: "Maria Souza"'), {
    name: 'PostgresError',
    severity: 'ERROR',
    code: '22P02',
    detail: 'Failing row contains (txn_1, Maria Souza, 52998224725, maria@example.com).',
    where: 'JSON data, line 1: {"name": "Maria Souza", "document": "52998224725"',
    query: 'insert into transactions (payer) values ($1)',
    parameters: ['{"name":"Maria Souza","email":"maria@example.com"}'],
    table_name: 'transactions',
    constraint_name: 'transactions_payer_check',
  });
}

describe('log redaction of errors', () => {
  const LEAKS = ['Maria Souza', '52998224725', '529.982.247-25', 'maria@example.com', '11.222.333/0001-81'];

  it('keeps class, SQLSTATE, table and constraint of a database error and drops its values, at any depth and in causes', () => {
    const { log, text } = capture();
    const wrapped = new Error('persisting the charge failed', { cause: postgresError() });
    log.warn({ meta: { error: wrapped, durationMs: 12 } }, 'Activity failed');
    log.error({ err: postgresError() }, 'unhandled error');
    log.error(postgresError());
    const out = text();
    for (const leaked of LEAKS) expect(out).not.toContain(leaked);
    const [activity, unhandled, bare] = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(activity.meta.durationMs).toBe(12);
    expect(activity.meta.error).toMatchObject({ type: 'Error', message: 'persisting the charge failed' });
    const expected = {
      type: 'PostgresError',
      code: '22P02',
      severity: 'ERROR',
      table_name: 'transactions',
      constraint_name: 'transactions_payer_check',
      message: 'invalid input syntax for type integer: "[redacted]"',
    };
    for (const err of [activity.meta.error.cause, unhandled.err, bare.err]) {
      expect(err).toMatchObject(expected);
      for (const dropped of ['detail', 'where', 'query', 'parameters']) expect(err).not.toHaveProperty(dropped);
      expect(err.stack).toMatch(/^\s+at /);
    }
    expect(bare.msg).toBe(expected.message);
  });

  it('keeps the quoted names of database objects in a database error message', () => {
    const { log, text } = capture();
    const err = Object.assign(new Error('new row for relation "transactions" violates check constraint "payer_check"'), {
      name: 'PostgresError',
      severity: 'ERROR',
      code: '23514',
    });
    log.error({ err }, 'failed');
    expect(JSON.parse(text()).err.message).toBe(err.message);
  });

  it('masks CPF, CNPJ and e-mail addresses in any message and string value', () => {
    const { log, text } = capture();
    log.warn(
      { meta: { workflowId: 'charge:acc_1:pedido-52998224725', note: ['contato maria@example.com'] } },
      'retry for %s, CNPJ %s',
      '529.982.247-25',
      '11.222.333/0001-81',
    );
    log.error(new Error('payer maria@example.com with document 52998224725 refused'));
    const out = text();
    for (const leaked of LEAKS) expect(out).not.toContain(leaked);
    expect(out).toContain('charge:acc_1:pedido-[redacted]');
    expect(out).toContain('payer [redacted] with document [redacted] refused');
  });

  it('makes an error from another realm (the workflow sandbox) safe as well, and leaves what was logged untouched', () => {
    const { log, text } = capture();
    const foreign = runInNewContext('new Error("falhou para maria@example.com")') as Error;
    const meta = { error: foreign, detail: { payer: 'x' } };
    log.warn({ meta }, 'Workflow failed');
    expect(JSON.parse(text()).meta.error).toMatchObject({ type: 'Error', message: 'falhou para [redacted]' });
    expect(meta.error).toBe(foreign);
    expect(foreign.message).toBe('falhou para maria@example.com');
  });
});
