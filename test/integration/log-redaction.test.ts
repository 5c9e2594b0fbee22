// Personal data never reaches the logs through an error: a charge whose persistence fails in
// PostgreSQL (the failing row, with the payer's name, document and e-mail, is in the error's
// `detail`) is logged by the worker's "Activity failed" warning through the Temporal SDK's logger
// (once: a data error is not retried); the engine's output holds the error's SQLSTATE and constraint, and no payer data.
import { describe, expect, it } from 'vitest';
import { chargeBody, postCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';

const PAYER = { name: 'Joana Registro Falho', document: '111.444.777-35', email: 'joana.falha@example.com' };
const LEAKS = [PAYER.name, 'Joana', 'Registro Falho', PAYER.document, '11144477735', PAYER.email, 'joana.falha'];

describe('log redaction of errors', () => {
  const live = liveStack({ env: { ACCEPT_WAIT_MS: '500' } });

  it('logs a failing activity with a payer without the payer name, document or e-mail', async () => {
    const { client } = await createMerchant(live.stack);
    // A first charge warms the engine up, so that the refusal below comes within ACCEPT_WAIT_MS.
    expect((await postCharge(client, chargeBody())).status).toBe(201);
    // A constraint the payer's row violates: PostgreSQL answers 23514 with "Failing row contains (…)" as detail.
    await live.sql.unsafe(`alter table transactions add constraint test_payer_refused check (payer->>'name' <> '${PAYER.name}') not valid`);
    // A data error ends the accept step for good (no retries): the request is refused, nothing kept.
    const res = await postCharge(client, chargeBody({ payer: PAYER }));
    expect([res.status, res.body.error?.code], res.text).toEqual([400, 'invalid_request']);

    const engine = live.stack.processes[0]!;
    const failures = await eventually(() => {
      const lines = engine.output().split('\n').filter((line) => line.includes('"Activity failed"'));
      return lines.length > 0 ? lines : undefined;
    }, 30_000);
    for (const line of failures) {
      expect(line).toContain('23514');
      expect(line).toContain('test_payer_refused');
    }
    for (const leaked of LEAKS) expect(engine.output()).not.toContain(leaked);
  });
});
