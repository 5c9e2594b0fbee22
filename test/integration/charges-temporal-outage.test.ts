// Temporal unreachable while a charge is requested: no 202 (nothing would be under way), but a 503 that
// changes nothing; once Temporal is back, the same key creates the charge. The engine reaches Temporal
// through a local TCP relay that the test cuts and restores.
import { describe, expect, it } from 'vitest';
import { chargeBody, newKey, postCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { stackBehindTemporalRelay } from '../helpers/temporal-outage.js';

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
    const created = await eventually(
      async () => {
        const res = await postCharge(client, chargeBody(), key);
        return [200, 201].includes(res.status) && res.body.data.pix ? res : undefined;
      },
      60_000,
      500,
    );
    expect(created.body.data).toMatchObject({ externalId: key, status: 'pending' });
  });
});
