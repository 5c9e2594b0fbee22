// One Pix, one budget (issue 45): every amount a charge can come to is held to the account's limits when
// it is created — a due-date charge's most (the fine and the interest of its last payable day) and least
// (after the abatement or a discount), an immediate charge's amount with the fee coverFee adds — each
// refusal a 400 naming the field to blame; the payer's page shows what is due on the day it is opened,
// fine and interest included; and a payment the engine cannot settle ends its workflow at once, loudly,
// instead of retrying for ever. Over HTTP on the simulator, against a real PostgreSQL and Temporal.
import { describe, expect, it } from 'vitest';
import { addDays, saoPauloDate } from '../../../contracts/calendar.js';
import { chargeBody, newKey, postCharge, waitForStatus } from '../../helpers/charges.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { eventually } from '../../helpers/eventually.js';
import { liveStack } from '../../helpers/live-stack.js';
import { admin, http } from '../../helpers/stack.js';
import { historyReader, localActivityFailures } from '../../helpers/workflow-history.js';
import { PERMANENT_DATA_ERROR } from '../../../contracts/transaction.contract.js';

/** 0.50 + 2 %: R$ 10.000,00 with coverFee makes the payer pay R$ 10.204,59. */
const FEES = { charge: { fixed: 0.5, percent: 2 } };

describe('the amounts a charge can come to, within the account limits (R$ 1,00 to R$ 10.000,00)', () => {
  const live = liveStack();
  const today = saoPauloDate(new Date());
  const day = (offset: number) => addDays(today, offset);

  /** R$ 100,00 due in 10 days, with the rules given. */
  const dueCharge = (rules: Record<string, unknown>) => chargeBody({ amount: 100, dueDate: day(10), ...rules });

  it.each([
    ['a fixed fine of R$ 1.000.000.000,00', { fine: { mode: 'fixed', value: 1e9 } }, '/fine/value'],
    [
      'the largest fine and daily interest for 365 days',
      {
        validityAfterDue: 365,
        fine: { mode: 'fixed', value: 9_999_999_999_999.99 },
        interest: { mode: 'fixed_per_day', value: 9_999_999_999_999.99 },
      },
      '/fine/value',
    ],
    ['R$ 400,00 a day for 30 days', { interest: { mode: 'fixed_per_day', value: 400 } }, '/interest/value'],
    ['100 % a day for 365 days', { validityAfterDue: 365, interest: { mode: 'percent_per_day', value: 100 } }, '/interest/value'],
    ['a discount of 99.99 on 100', { discounts: [{ until: day(2), mode: 'fixed', value: 99.99 }] }, '/discounts/0/value'],
    [
      'a first discount leaving R$ 0,50',
      {
        discounts: [
          { until: day(1), mode: 'percent', value: 99.5 },
          { until: day(2), mode: 'percent', value: 10 },
        ],
      },
      '/discounts/0/value',
    ],
    ['an abatement of 99.5 %', { abatement: { mode: 'percent', value: 99.5 } }, '/abatement/value'],
  ])('refuses %s: 400 invalid_request naming the field, nothing created', async (_label, rules, param) => {
    const { client } = await createMerchant(live.stack);
    const key = newKey();
    const res = await postCharge(client, dueCharge(rules), key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    expect(res.body.error.message).toMatch(/fora dos limites/);
    expect((await client.get(`/transactions/${key}`)).status).toBe(404);
  });

  it('takes rules whose most and least stay within the limits, to the centavo', async () => {
    const { client } = await createMerchant(live.stack);
    // On the 30th day late: 100 + 10 + 30 × 329.66 = 9999.80; the discount leaves exactly R$ 1,00.
    const res = await postCharge(
      client,
      dueCharge({
        fine: { mode: 'fixed', value: 10 },
        interest: { mode: 'fixed_per_day', value: 329.66 },
        discounts: [{ until: day(2), mode: 'fixed', value: 99 }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.amountDue).toBe(1);
    const atTheTop = await postCharge(client, dueCharge({ validityAfterDue: 1, fine: { mode: 'fixed', value: 9899.99 } }));
    expect(atTheTop.status).toBe(201);
    const aCentavoOver = await postCharge(client, dueCharge({ validityAfterDue: 1, fine: { mode: 'fixed', value: 9900.01 } }));
    expect(aCentavoOver.body.error).toMatchObject({ code: 'invalid_request', param: '/fine/value' });
  });

  it('refuses an immediate charge whose fee, paid by the payer (coverFee), takes it over the maximum', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const key = newKey();
    const res = await postCharge(client, chargeBody({ amount: 10_000, coverFee: true }), key);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: '/amount' });
    expect(res.body.error.message).toMatch(/fora dos limites.*R\$ 10\.204,59/);
    expect((await client.get(`/transactions/${key}`)).status).toBe(404);
    // Without coverFee the same amount is the payer's, and within the limits.
    expect((await postCharge(client, chargeBody({ amount: 10_000 }))).status).toBe(201);
    const fits = await postCharge(client, chargeBody({ amount: 9799.5, coverFee: true }));
    expect(fits.status).toBe(201);
    expect(fits.body.data.amount).toBe(10_000);
    const aCentavoOver = await postCharge(client, chargeBody({ amount: 9799.51, coverFee: true }));
    expect(aCentavoOver.body.error).toMatchObject({ code: 'invalid_request', param: '/amount' });
  });

  it('names the amount when the amount itself is out of the limits', async () => {
    const { client } = await createMerchant(live.stack);
    const res = await postCharge(client, chargeBody({ amount: 10_000.01 }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param: '/amount' });
  });

  it("shows on the payer's page, on a day late, the amount due that day with its fine and interest", async () => {
    const { client } = await createMerchant(live.stack);
    const created = (
      await postCharge(
        client,
        chargeBody({
          amount: 100,
          dueDate: today,
          fine: { mode: 'fixed', value: 2 },
          interest: { mode: 'fixed_per_day', value: 0.5 },
        }),
      )
    ).body.data;
    // Three days later: the charge was due three days ago (a due date cannot be set in the past).
    await live.sql`update transactions set due_date = ${day(-3)} where id = ${created.id}`;
    expect((await client.get(`/transactions/${created.id}`)).body.data.amountDue).toBe(103.5);
    const page = await http('GET', `${live.stack.rootUrl}${new URL(created.checkoutUrl).pathname}`);
    expect(page.status).toBe(200);
    const text = page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Valor a pagar hoje R$ 103,50');
    expect(text).toContain(`Vencimento: ${day(-3).split('-').reverse().join('/')}`);
    expect(text).toContain('Inclui R$ 3,50 de multa e juros por 3 dias de atraso');
  });
});

describe('a payment the engine cannot settle', () => {
  const live = liveStack();
  const today = saoPauloDate(new Date());

  it('ends its workflow at the first attempt, with an alert, and moves no money', async () => {
    const { client, account } = await createMerchant(live.stack);
    const key = newKey();
    const created = (await postCharge(client, chargeBody({ amount: 100, dueDate: today }), key)).body.data;
    // As a charge accepted before its amounts were bounded: R$ 9.999.999.999.999,99 of fine, and as much interest a day for 365 days.
    const billing = {
      validityAfterDue: 365,
      fine: { mode: 'fixed', value: 999_999_999_999_999 },
      interest: { mode: 'fixed_per_day', value: 999_999_999_999_999 },
      discounts: [],
      abatement: null,
    };
    await live.sql`update transactions set billing = ${live.sql.json(billing)} where id = ${created.id}`;
    await live.sql`update simulator_charges set billing = ${live.sql.json(billing)} where transaction_id = ${created.id}`;

    const paid = await admin(live.stack, 'POST', `/simulator/charges/${created.id}/pay`, { paidOn: addDays(today, 365) });
    expect(paid.status).toBe(200);

    const temporal = await historyReader();
    try {
      const handle = temporal.workflow.getHandle(`charge:${account.id}:${key}`);
      await eventually(async () => (await handle.describe()).status.name === 'FAILED', 20_000, 200);
      const failures = await localActivityFailures(handle);
      // The local activity that reads the simulator's answer settles it (local-confirm-and-settle).
      expect(failures).toEqual([{ activityType: 'confirmChargeAtRoute', attempt: 1, failureType: PERMANENT_DATA_ERROR }]);
    } finally {
      await temporal.connection.close();
    }
    const alert = await eventually(() =>
      live.stack.processes
        .flatMap((p) => p.output().split('\n'))
        .find((line) => line.includes('unsettlable_payment') && line.includes(created.id)),
    );
    expect(alert).toContain('an operator must settle it with the payer');

    const read = (await client.get(`/transactions/${created.id}`)).body.data;
    expect(read).toMatchObject({ status: 'pending', paidAmount: null });
    const postings = await live.sql`select 1 from ledger_postings where posting_key = ${`charge:${created.id}:settle`}`;
    expect(postings).toHaveLength(0);
    // The engine's other charges settle as ever.
    const other = (await postCharge(client, chargeBody({ amount: 10 }))).body.data;
    await admin(live.stack, 'POST', `/simulator/charges/${other.id}/pay`);
    await waitForStatus(client, other.id, 'approved');
  });
});
