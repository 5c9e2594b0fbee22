// The settlement's bounds: a paid amount the ledger cannot take exactly (not whole, not positive, or past
// Number.MAX_SAFE_INTEGER centavos) is refused before anything is read or written, with an alert, and the
// worker's settleChargePaid activity ends for good (a non-retryable PermanentDataError) instead of being
// retried for ever. The activity as the worker runs it: chargeActivities through the worker's
// interceptors on the SDK's MockActivityEnvironment.
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { chargeActivities } from '../../src/charges/activities.js';
import { activityInterceptors } from '../../activities/index.js';
import { PERMANENT_DATA_ERROR } from '../../contracts/transaction.contract.js';
import type { PaidAtRoute } from '../../src/charges/contract.js';
import { settleChargePaid } from '../../src/charges/lifecycle.js';
import { CentsOutOfRange, isExactCents } from '../../src/domain/money.js';
import type { Deps } from '../../src/runtime/deps.js';

/** R$ 9.999.999.999.999,99 of fine and of interest for each of 365 days, paid on the last: 3.66e17 centavos. */
const UNSETTLABLE = 999_999_999_999_999 * 366 + 10_000;

const paid = (amountCents: number): PaidAtRoute => ({ status: 'paid', paidAt: '2027-12-01T12:00:00.000Z', amountCents, payer: {} });

/** Deps whose database must not be reached, and whose log keeps what it was told. */
function unreachedDeps() {
  const logged: { fields: Record<string, unknown>; message: string }[] = [];
  const sql = () => {
    throw new Error('the database was reached');
  };
  const log = { error: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) };
  return { deps: { sql, log } as unknown as Deps, logged };
}

describe('the centavos the engine computes with exactly', () => {
  it('are whole, positive, and at most Number.MAX_SAFE_INTEGER', () => {
    for (const cents of [1, 10_000, 999_999_999_999, Number.MAX_SAFE_INTEGER]) expect(isExactCents(cents), String(cents)).toBe(true);
    for (const cents of [0, -1, 0.5, 1e20, UNSETTLABLE, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity]) {
      expect(isExactCents(cents), String(cents)).toBe(false);
    }
  });
});

describe('settling a paid charge', () => {
  it.each([
    ['past Number.MAX_SAFE_INTEGER', UNSETTLABLE],
    ['fractional', 100.5],
    ['nothing', 0],
  ])('refuses an amount %s before touching the database, with an alert naming the charge', async (_label, amountCents) => {
    const { deps, logged } = unreachedDeps();
    await expect(settleChargePaid(deps, 'txn_unsettlable', paid(amountCents))).rejects.toBeInstanceOf(CentsOutOfRange);
    expect(logged).toEqual([
      {
        fields: { alert: 'unsettlable_payment', transactionId: 'txn_unsettlable', paidCents: amountCents },
        message: expect.stringMatching(/^alert: .*an operator must settle it with the payer$/),
      },
    ]);
  });

  it('ends the worker activity for good: a non-retryable PermanentDataError, not a retried RangeError', async () => {
    const { deps } = unreachedDeps();
    const env = new MockActivityEnvironment(
      { activityType: 'settleChargePaid' },
      {
        interceptors: activityInterceptors,
        logger: new DefaultLogger('ERROR'),
      },
    );
    const { settleChargePaid: activity } = chargeActivities(deps);
    const failure = await env.run(activity, 'txn_unsettlable', paid(UNSETTLABLE)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: PERMANENT_DATA_ERROR, nonRetryable: true });
    expect((failure as Error).message).toContain('txn_unsettlable');
  });
});
