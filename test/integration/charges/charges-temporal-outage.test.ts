// Temporal unreachable while a charge is requested: no 202 (nothing would be under way), but a 503 that
// changes nothing; once Temporal is back, the same key creates the charge. The engine reaches Temporal
// through a local TCP relay that the test cuts and restores.
import { describe, expect, it } from 'vitest';
import { chargeBody, newKey, postCharge } from '../../helpers/charges.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { poll } from '../../helpers/probe.js';
import type { HttpResult } from '../../helpers/stack.js';
import { stackBehindTemporalRelay } from '../../helpers/temporal-outage.js';

/** The 503 that asks to repeat the request with the same Idempotency-Key. */
const isSameKeyRefusal = (res: HttpResult) =>
  res.status === 503 && res.body.error?.code === 'internal_error' && /mesma chave/.test(res.body.error.message);

describe('charges while Temporal is unreachable', () => {
  const outage = stackBehindTemporalRelay({ ACCEPT_WAIT_MS: '1000' });

  it('answers 503 internal_error and keeps nothing, then creates the charge with the same key once Temporal is back', async () => {
    const { stack, sql, temporal } = outage;
    const { client, account } = await createMerchant(stack);
    await temporal.cut();
    const key = newKey('outage');
    const refused = await postCharge(client, chargeBody(), key);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual({ code: 'internal_error', message: expect.stringMatching(/mesma chave/) });
    expect((await sql`select count(*)::int as n from transactions where account_id = ${account.id}`)[0]!.n).toBe(0);

    await temporal.open();
    // Until the engine's client reaches Temporal again the same 503 may answer (repeat with the same key),
    // then a 202 while the acceptance outlasts the wait.
    const created = await poll(
      () => postCharge(client, chargeBody(), key),
      (res) => (res.body.data.pix ? res : undefined),
      { ready: [200, 201], notYet: (res) => res.status === 202 || isSameKeyRefusal(res), timeoutMs: 60_000, everyMs: 500 },
    );
    expect(created.body.data).toMatchObject({ externalId: key, status: 'pending' });
  });
});
