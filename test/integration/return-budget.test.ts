// One return budget per Pix (src/returns/budget.ts): refunds and MEDs of the same charge draw on what
// its payer paid, in either order and at once, and a transfer racing them on the same balance cannot
// make the engine return more than that. A charge another account of the engine paid goes back to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCharge, newKey, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { liveStack } from '../helpers/live-stack.js';
import { admin, ADMIN_TOKEN, http, type HttpResult } from '../helpers/stack.js';
import { balanceOf, completeTransferOnceArrived, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';

// Refunds and transfers settle only when the operator (the simulated network) says so.
const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

type Merchant = Awaited<ReturnType<typeof createMerchant>>;

async function paidCharge(merchant: Merchant, amount: number): Promise<any> {
  const charge = await createCharge(merchant.client, { amount });
  const paid = await payCharge(live.stack, charge.id);
  expect(paid.status, paid.text).toBe(200);
  return waitForStatus(merchant.client, charge.id, 'approved');
}

const refund = (transactionId: string, amount?: number) =>
  http('POST', `${live.stack.adminUrl}/transactions/${transactionId}/refunds`, {
    body: amount === undefined ? {} : { amount },
    token: ADMIN_TOKEN,
    headers: { 'idempotency-key': newKey('r') },
  });
const completeRefund = (id: string, outcome: 'approved' | 'failed') =>
  admin(live.stack, 'POST', `/simulator/refunds/${id}/complete`, { outcome });
const openMed = (transactionId: string, amount?: number) =>
  admin(live.stack, 'POST', '/simulator/meds', amount === undefined ? { transactionId } : { transactionId, amount });
const decideMed = (id: string, outcome: 'accepted' | 'rejected') => admin(live.stack, 'POST', `/meds/${id}/decision`, { outcome });

function expectRefusedWithLeft(res: HttpResult, left: string): void {
  expect(res.status, res.text).toBe(422);
  expect(res.body.error.code).toBe('operation_refused');
  expect(res.body.error.message).toContain(`resta ${left}`);
}

/** What the ledger returned to payers of this charge: refunds settled to clearing and MED returns. */
async function returnedCents(transactionId: string): Promise<number> {
  const [row] = await live.sql<{ cents: bigint }[]>`
    select coalesce(sum(e.amount), 0)::bigint as cents
    from ledger_postings p join ledger_entries e on e.posting_id = p.id
    where p.transaction_id = ${transactionId} and e.ledger_account_id like 'platform:pix_clearing:%'
      and (p.posting_key like 'refund:%:settle' or p.posting_key like 'med:%:return')`;
  return Number(row!.cents);
}

async function chargeOf(merchant: Merchant, id: string): Promise<any> {
  const res = await merchant.client.get(`/transactions/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('one return budget per Pix', () => {
  it('a pending refund leaves nothing for a MED; the refund approves and the charge is refunded once', async () => {
    const merchant = await createMerchant(live.stack);
    const charge = await paidCharge(merchant, 60);
    const refunded = await refund(charge.id, 60);
    expect(refunded.status, refunded.text).toBe(201);

    expectRefusedWithLeft(await openMed(charge.id, 60), 'R$ 0,00');
    expectRefusedWithLeft(await openMed(charge.id), 'R$ 0,00');
    expect((await completeRefund(refunded.body.data.id, 'approved')).status).toBe(200);

    expect(await chargeOf(merchant, charge.id)).toMatchObject({ status: 'refunded', refundedAmount: 60 });
    expect(await returnedCents(charge.id)).toBe(6000);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('an open MED retains the budget: a refund is refused until the MED is rejected, and accepted it returns once', async () => {
    const merchant = await createMerchant(live.stack);
    const charge = await paidCharge(merchant, 60);
    const med = await openMed(charge.id, 60);
    expect(med.status, med.text).toBe(201);
    expect(med.body.data).toMatchObject({ status: 'open', retainedAmount: 60 });

    expectRefusedWithLeft(await refund(charge.id, 60), 'R$ 0,00');
    expectRefusedWithLeft(await refund(charge.id), 'R$ 0,00');
    expect((await decideMed(med.body.data.id, 'accepted')).body.data).toMatchObject({ status: 'accepted', returnedAmount: 60 });
    expect(await chargeOf(merchant, charge.id)).toMatchObject({ status: 'refunded', refundedAmount: 60 });

    // Rejected, a MED gives its retention back to the budget.
    const other = await paidCharge(merchant, 50);
    const rejected = await openMed(other.id, 20);
    expect(rejected.status, rejected.text).toBe(201);
    expectRefusedWithLeft(await refund(other.id, 31), 'R$ 30,00');
    expect((await decideMed(rejected.body.data.id, 'rejected')).status).toBe(200);
    const whole = await refund(other.id);
    expect(whole.status, whole.text).toBe(201);
    expect(whole.body.data.amount).toBe(50);

    expect(await returnedCents(charge.id)).toBe(6000);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('a failed refund gives its amount back to the budget; a MED then takes what is left', async () => {
    const merchant = await createMerchant(live.stack);
    const charge = await paidCharge(merchant, 80);
    const first = await refund(charge.id, 30);
    expect(first.status, first.text).toBe(201);
    const med = await openMed(charge.id);
    expect(med.status, med.text).toBe(201);
    expect(med.body.data).toMatchObject({ amount: 50, retainedAmount: 50 });
    expect((await completeRefund(first.body.data.id, 'failed')).status).toBe(200);
    const rest = await refund(charge.id);
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.data.amount).toBe(30);
    await completeRefund(rest.body.data.id, 'approved');
    await decideMed(med.body.data.id, 'accepted');
    expect(await chargeOf(merchant, charge.id)).toMatchObject({ status: 'refunded', refundedAmount: 80 });
    expect(await returnedCents(charge.id)).toBe(8000);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('a refund, a MED and a transfer at once return at most what was paid, in every run', async () => {
    const merchant = await createMerchant(live.stack);
    await fund(live.stack, merchant.client, 40);
    for (let round = 0; round < 4; round++) {
      const charge = await paidCharge(merchant, 60);
      const [refunded, med, transfer] = await Promise.all([
        refund(charge.id, 60),
        openMed(charge.id, 60),
        postTransfer(merchant.client, cpfKeyBody({ amount: 25 })),
      ]);
      // A refund may find the balance spent by the transfer, a MED retain only what is available (and only that
      // draws on the budget): whichever is refused says what is left or that the balance is short.
      for (const r of [refunded, med].filter((r) => r.status !== 201)) {
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.message).toMatch(/resta R\$ [\d.]+,\d\d|insuficiente/);
      }
      if (refunded.status === 201) await completeRefund(refunded.body.data.id, 'approved');
      else if (med.status === 201) await decideMed(med.body.data.id, 'accepted');
      if (transfer.status === 201) await completeTransferOnceArrived(live.stack, transfer.body.data.id, 'approved');
      else expect(transfer.status, transfer.text).toBe(422);

      const returned = await returnedCents(charge.id);
      expect(returned).toBeLessThanOrEqual(6000);
      expect((await chargeOf(merchant, charge.id)).refundedAmount * 100).toBe(returned);
    }
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('a refund of a charge another account paid from its balance goes back to that account', async () => {
    const seller = await createMerchant(live.stack);
    const buyer = await createMerchant(live.stack);
    await fund(live.stack, buyer.client, 100);
    const charge = await createCharge(seller.client, { amount: 40 });
    const paid = await postTransfer(buyer.client, { destination: { type: 'pix_copy_paste', value: charge.pix.copyPaste } });
    expect(paid.status, paid.text).toBe(201);
    await waitForStatus(seller.client, charge.id, 'approved');
    await waitForStatus(buyer.client, paid.body.data.id, 'approved');
    expect(await balanceOf(buyer.client)).toEqual({ available: 60, reserved: 0 });

    const refunded = await refund(charge.id, 30);
    expect(refunded.status, refunded.text).toBe(201);
    expect((await completeRefund(refunded.body.data.id, 'approved')).status).toBe(200);
    expect(await balanceOf(seller.client)).toEqual({ available: 10, reserved: 0 });
    expect(await balanceOf(buyer.client)).toEqual({ available: 90, reserved: 0 });

    const deposits = await eventually(async () => {
      const list = await buyer.client.get('/transactions?limit=100');
      const found = list.status === 200 ? list.body.data.filter((t: any) => t.type === 'deposit') : [];
      return found.length === 1 ? found : undefined;
    }, 10_000);
    expect(deposits[0]).toMatchObject({ type: 'deposit', direction: 'in', status: 'approved', amount: 30, method: 'internal' });
    expect(deposits[0].description).toContain(refunded.body.data.id);

    // A MED accepted on the rest returns it to the buyer too.
    const med = await openMed(charge.id);
    expect(med.status, med.text).toBe(201);
    await decideMed(med.body.data.id, 'accepted');
    expect(await balanceOf(seller.client)).toEqual({ available: 0, reserved: 0 });
    expect(await balanceOf(buyer.client)).toEqual({ available: 100, reserved: 0 });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});

// The budget against a model: any sequence of refunds, MEDs and their outcomes on one charge leaves
// returned + in flight ≤ paid, and each request is granted exactly when the model says it fits.
describe('the return budget against a model', () => {
  type Step =
    | { kind: 'refund'; cents: number | null }
    | { kind: 'med'; cents: number | null }
    | { kind: 'settleRefund'; outcome: 'approved' | 'failed' }
    | { kind: 'decideMed'; outcome: 'accepted' | 'rejected' };
  const cents = fc.option(fc.integer({ min: 1, max: 6000 }), { nil: null });
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant('refund' as const), cents }),
    fc.record({ kind: fc.constant('med' as const), cents }),
    fc.record({ kind: fc.constant('settleRefund' as const), outcome: fc.constantFrom('approved' as const, 'failed' as const) }),
    fc.record({ kind: fc.constant('decideMed' as const), outcome: fc.constantFrom('accepted' as const, 'rejected' as const) }),
  );

  it('grants what fits and refuses the rest', async () => {
    const merchant = await createMerchant(live.stack);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const charge = await paidCharge(merchant, 60);
        const model = {
          paid: 6000,
          returned: 0,
          pendingRefunds: [] as { id: string; cents: number }[],
          openMed: null as null | { id: string; cents: number },
        };
        const left = () =>
          model.paid - model.returned - model.pendingRefunds.reduce((s, r) => s + r.cents, 0) - (model.openMed?.cents ?? 0);
        for (const s of steps) {
          if (s.kind === 'refund') {
            const fits = left() > 0 && (s.cents === null || s.cents <= left());
            const res = await refund(charge.id, s.cents === null ? undefined : s.cents / 100);
            expect(res.status, res.text).toBe(fits ? 201 : 422);
            if (fits) model.pendingRefunds.push({ id: res.body.data.id, cents: s.cents ?? left() });
          } else if (s.kind === 'med') {
            const fits = model.openMed === null && left() > 0 && (s.cents === null || s.cents <= left());
            const res = await openMed(charge.id, s.cents === null ? undefined : s.cents / 100);
            expect(res.status, res.text).toBe(fits ? 201 : 422);
            if (fits) model.openMed = { id: res.body.data.id, cents: Math.round(res.body.data.retainedAmount * 100) };
          } else if (s.kind === 'settleRefund') {
            const pending = model.pendingRefunds.shift();
            if (!pending) continue;
            expect((await completeRefund(pending.id, s.outcome)).status).toBe(200);
            if (s.outcome === 'approved') model.returned += pending.cents;
          } else {
            if (!model.openMed) continue;
            expect((await decideMed(model.openMed.id, s.outcome)).status).toBe(200);
            if (s.outcome === 'accepted') model.returned += model.openMed.cents;
            model.openMed = null;
          }
          expect(left()).toBeGreaterThanOrEqual(0);
        }
        expect(await returnedCents(charge.id)).toBe(model.returned);
      }),
      { numRuns: 8 },
    );
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
