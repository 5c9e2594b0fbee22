// Due-date charges (cobv) over HTTP on the simulator: creation with its rules and the read model's new
// fields, the amount due on the day the simulated payer pays (paidOn), priced to the centavo, the fee
// and percent split on what was paid, the ledger, validation with `param`, idempotency, the validity.
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../../contracts/calendar.js';
import { customerAccount, platformAccount } from '../../../src/ledger/accounts.js';
import { chargeBody, newKey, postCharge, waitForStatus } from '../../helpers/charges.js';
import { CNPJ, createAccount, createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { admin } from '../../helpers/stack.js';

const FEES = { charge: { fixed: 0.5, percent: 1.99 } };

describe('due-date charges on the simulator', () => {
  const live = liveStack();
  const today = saoPauloDate(new Date());
  const day = (offset: number) => addDays(today, offset);

  /** R$ 1000 due in 10 days: R$ 10 abatement, 5 % off until day 3, 2 % fine, 1 % a month, 30 days to pay late. */
  const rent = (overrides: Record<string, unknown> = {}) =>
    chargeBody({
      amount: 1000,
      dueDate: day(10),
      fine: { mode: 'percent', value: 2 },
      interest: { mode: 'percent_per_month', value: 1 },
      discounts: [{ until: day(3), mode: 'percent', value: 5 }],
      abatement: { mode: 'fixed', value: 10 },
      ...overrides,
    });

  const pay = (id: string, body?: Record<string, unknown>) => admin(live.stack, 'POST', `/simulator/charges/${id}/pay`, body);

  async function entriesOf(postingKey: string): Promise<Record<string, number>> {
    const rows = await live.sql<{ account: string; amount: bigint }[]>`
      select e.ledger_account_id as account, e.amount from ledger_entries e join ledger_postings p on p.id = e.posting_id
      where p.posting_key = ${postingKey}`;
    return Object.fromEntries(rows.map((r) => [r.account, Number(r.amount)]));
  }

  it('creates a pending charge with its due date, its rules as sent with the defaults, what is due today, and the end of its validity', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const res = await postCharge(client, rent({ payer: { name: 'Imobiliária Central Ltda', document: CNPJ.alphanumeric } }));
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({
      status: 'pending',
      amount: 1000,
      fee: 20.4,
      netAmount: 979.6,
      dueDate: day(10),
      billing: {
        validityAfterDue: 30,
        fine: { mode: 'percent', value: 2 },
        interest: { mode: 'percent_per_month', value: 1 },
        discounts: [{ until: day(3), mode: 'percent', value: 5 }],
        abatement: { mode: 'fixed', value: 10 },
      },
      amountDue: 940.5,
      paidAmount: null,
      payer: { document: '12ABC34501DE35' },
    });
    expect(created.expiresAt).toBe(startOfSaoPauloDay(day(41)).toISOString());
    // The code carries no amount: the network asks what is due on the day it is paid.
    expect(parseBrCode(created.pix.copyPaste)).toMatchObject({ ok: true, amountCents: null });

    const plain = await postCharge(client, chargeBody({ amount: 10 }));
    expect(plain.body.data).toMatchObject({ dueDate: null, billing: null, amountDue: null, paidAmount: null });
  });

  it.each([
    { label: 'early, with the discount', paidOn: 0, paid: 940.5, fee: 19.22, share: 94.05, net: 822.23 },
    { label: 'after the discount, by the due date', paidOn: 10, paid: 990, fee: 20.2, share: 99, net: 865.8 },
    { label: '15 days late: fine and 15 days of interest', paidOn: 25, paid: 1014.75, fee: 20.69, share: 101.48, net: 887.58 },
  ])('prices a payment $label to the centavo, fee and percent split on what was paid', async ({ paidOn, paid, fee, share, net }) => {
    const { client, account } = await createMerchant(live.stack, { fees: FEES });
    const [partner, other] = [await createAccount(live.stack), await createAccount(live.stack)];
    const split = [
      { recipient: partner.email, percent: 10 },
      { recipient: other.id, amount: 5 },
    ];
    const created = (await postCharge(client, rent({ split }))).body.data;
    const answer = await pay(created.id, { paidOn: day(paidOn) });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ status: 'paid', dueDate: day(10), paidAmount: paid, amount: 1000 });

    const approved = await waitForStatus(client, created.id, 'approved');
    expect(approved).toMatchObject({ amount: 1000, paidAmount: paid, amountDue: null, fee, splitAmount: share + 5, netAmount: net });
    expect(approved.split.map((s: any) => s.amount)).toEqual([share, 5]);
    expect(paid).toBeCloseTo(fee + share + 5 + net, 10);
    const cents = (reais: number) => Math.round(reais * 100);
    expect(await entriesOf(`charge:${created.id}:settle`)).toEqual({
      [platformAccount('pix_clearing', created.id)]: -cents(paid),
      [platformAccount('fee_revenue', created.id)]: cents(fee),
      [customerAccount(partner.id, 'available')]: cents(share),
      [customerAccount(other.id, 'available')]: 500,
      [customerAccount(account.id, 'available')]: cents(net),
    });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('lists an overdue charge with what is due today, fine and interest included, as its own read shows it', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const created = (await postCharge(client, rent())).body.data;
    await live.sql`update transactions set due_date = ${day(-3)} where id = ${created.id}`;
    const read = (await client.get(`/transactions/${created.id}`)).body.data;
    // R$ 1000 less the R$ 10 abatement, plus the 2 % fine and 3 days of interest: more than the R$ 990 due on the day.
    expect(read.amountDue).toBeGreaterThan(990);
    const listed = (await client.get('/transactions')).body.data.find((t: { id: string }) => t.id === created.id);
    expect(listed.amountDue).toBe(read.amountDue);
  });

  it('refuses a payment on a day after the validity (409), before the charge existed or on another day for an immediate charge (400)', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const created = (await postCharge(client, rent({ validityAfterDue: 5 }))).body.data;
    expect(created.expiresAt).toBe(startOfSaoPauloDay(day(16)).toISOString());
    const late = await pay(created.id, { paidOn: day(16) });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('payment_after_validity');
    const before = await pay(created.id, { paidOn: day(-1) });
    expect(before.status).toBe(400);
    expect(before.body.error).toMatchObject({ code: 'invalid_request', param: '/paidOn' });
    const malformed = await pay(created.id, { paidOn: '2026-02-30' });
    expect(malformed.body.error).toMatchObject({ code: 'invalid_request', param: '/paidOn' });
    // The last day of the validity is still a day to pay on: base + fine + 5 days of interest.
    const lastDay = await pay(created.id, { paidOn: day(15) });
    expect(lastDay.body.data.paidAmount).toBe(1011.45);
    await waitForStatus(client, created.id, 'approved');

    const immediate = (await postCharge(client, chargeBody({ amount: 10 }))).body.data;
    const tomorrow = await pay(immediate.id, { paidOn: day(1) });
    expect(tomorrow.body.error).toMatchObject({ code: 'invalid_request', param: '/paidOn' });
    expect((await pay(immediate.id, { paidOn: today })).body.data.paidAmount).toBe(10);
    expect(await waitForStatus(client, immediate.id, 'approved')).toMatchObject({ paidAmount: 10, fee: 0.7 });
  });

  it.each([
    ['coverFee with a due date', rent({ coverFee: true }), '/coverFee'],
    ['a fine without a due date', chargeBody({ fine: { mode: 'fixed', value: 1 } }), '/fine'],
    ['a due date in the past', rent({ dueDate: day(-1), discounts: undefined }), '/dueDate'],
    ['a due date over five years ahead', rent({ dueDate: addDays(today, 5 * 366) }), '/dueDate'],
    ['a percent over 100', rent({ interest: { mode: 'percent_per_day', value: 100.5 } }), '/interest/value'],
    ['three decimals', rent({ fine: { mode: 'fixed', value: 1.234 } }), '/fine/value'],
    ['a discount after the due date', rent({ discounts: [{ until: day(11), mode: 'percent', value: 5 }] }), '/discounts/0/until'],
    ['an abatement leaving nothing to pay', rent({ abatement: { mode: 'fixed', value: 1000 } }), '/abatement/value'],
    ['an invalid CNPJ', rent({ payer: { name: 'Empresa Ltda', document: '11.222.333/0001-82' } }), '/payer/document'],
  ])('refuses %s: 400 invalid_request with param, nothing created', async (_label, body, param) => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const key = newKey();
    const res = await postCharge(client, body, key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    expect((await client.get(`/transactions/${key}`)).status).toBe(404);
  });

  it('refuses a charge whose least amount due does not exceed the fee', async () => {
    // R$ 1,51 after the discount: within the account's limits, but not above a fee of 1.50 + 1.99 %.
    const { client } = await createMerchant(live.stack, { fees: { charge: { fixed: 1.5, percent: 1.99 } } });
    const res = await postCharge(
      client,
      rent({ amount: 10, abatement: undefined, discounts: [{ until: day(3), mode: 'fixed', value: 8.49 }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/menor valor a pagar/);
  });

  it('repeats by key: the same rules answer the charge (200), other rules are a conflict (409)', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const key = newKey();
    const first = await postCharge(client, rent(), key);
    expect(first.status).toBe(201);
    const again = await postCharge(client, rent({ validityAfterDue: 30 }), key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ idempotent: true, data: { id: first.body.data.id } });
    for (const change of [
      { fine: { mode: 'percent', value: 2.5 } },
      { validityAfterDue: 31 },
      { dueDate: day(11) },
      { discounts: [{ until: day(3), mode: 'percent', value: 6 }] },
      { interest: null },
    ]) {
      const conflict = await postCharge(client, rent(change), key);
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('idempotency_conflict');
    }
  });
});
