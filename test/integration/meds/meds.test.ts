// MED end to end on the real stack: real charges paid through the simulator, MEDs opened by the
// simulated payer's institution and decided by an operator through the admin API, the ledger and
// the balance checked to the centavo, the med.* events delivered and their signatures verified. Each
// test (the listing's: each block) opens its own shop and brings it where it starts, so it stands alone.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, payCharge } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { client, createKey, createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { runPixctl } from '../../helpers/pixctl-run.js';
import { admin } from '../../helpers/stack.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

const live = liveStack();
let receiver: Receiver;

/**
 * What each test starts from, made for it alone: a merchant (fee 1.00 + 1 %) with a reading key, a webhook
 * endpoint at the receiver, and two approved charges: A of 200.00 (net 197.00, its order 'pedido-med-a') and
 * B of 100.00 (net 98.00, 'pedido-med-b').
 */
interface Shop {
  merchant: Awaited<ReturnType<typeof createMerchant>>;
  /** A second key, for reads: the first one's quota goes to charges. */
  reader: ReturnType<typeof client>;
  secret: string;
  chargeA: any;
  chargeB: any;
}

async function approvedCharge(merchant: Shop['merchant'], amount: number, externalId: string): Promise<any> {
  const charge = await createCharge(merchant.client, { amount }, externalId);
  const paid = await payCharge(live.stack, charge.id);
  expect(paid.status, paid.text).toBe(200);
  await eventually(async () => {
    const [row] = await live.sql`select status from transactions where id = ${charge.id}`;
    return row?.status === 'approved';
  }, 20_000);
  return charge;
}

async function openShop(): Promise<Shop> {
  // Fee: 1.00 + 1 % of the charge.
  const merchant = await createMerchant(live.stack, { fees: { charge: { fixed: 1, percent: 1 } } });
  const reader = client(live.stack, (await createKey(live.stack, merchant.account.id)).key);
  const endpoint = await admin(live.stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url });
  expect(endpoint.status, endpoint.text).toBe(201);
  const chargeA = await approvedCharge(merchant, 200, 'pedido-med-a');
  const chargeB = await approvedCharge(merchant, 100, 'pedido-med-b');
  return { merchant, reader, secret: endpoint.body.data.secret, chargeA, chargeB };
}

const openMed = (body: Record<string, unknown>) => admin(live.stack, 'POST', '/simulator/meds', body);
const decide = (id: string, outcome: string) => admin(live.stack, 'POST', `/meds/${id}/decision`, { outcome });

/** A MED opened with `body` and decided with `outcome`. */
async function decidedMed(body: Record<string, unknown>, outcome: 'accepted' | 'rejected'): Promise<any> {
  const opened = await openMed(body);
  expect(opened.status, opened.text).toBe(201);
  const decided = await decide(opened.body.data.id, outcome);
  expect(decided.status, decided.text).toBe(200);
  return decided.body.data;
}

async function balance(shop: Shop) {
  const res = await shop.reader.get('/balance');
  expect(res.status).toBe(200);
  return res.body.data;
}

async function transaction(shop: Shop, id: string) {
  const res = await shop.reader.get(`/transactions/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The delivered event with this id, verified as an integrator would (stripe's verifier of the same scheme). */
async function deliveredEvent(shop: Shop, eventId: string): Promise<any> {
  const delivery = await eventually(() => receiver.received.find((r) => JSON.parse(r.rawBody).id === eventId), 20_000);
  const event = Stripe.webhooks.constructEvent(
    delivery.rawBody,
    delivery.headers['x-service-signature'] as string,
    shop.secret,
    300,
  ) as any;
  expect(delivery.headers['x-service-event']).toBe(event.event);
  expect(Object.keys(event)).toEqual(['id', 'event', 'createdAt', 'data']);
  expect(event.createdAt).toMatch(ISO_MS);
  return event;
}

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe('MED', () => {
  it('starts from the two approved charges', async () => {
    const shop = await openShop();
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 295, reserved: 0 });
  });

  it('accepted for the whole amount: retained, returned to the payer, the charge refunded', async () => {
    const shop = await openShop();
    const { chargeB } = shop;
    const opened = await openMed({ transactionId: chargeB.id, reason: 'fraud' });
    expect(opened.status, opened.text).toBe(201);
    const med = opened.body.data;
    expect(med).toEqual({
      id: expect.stringMatching(/^med_[0-9a-f]{24}$/),
      transactionId: chargeB.id,
      externalId: 'pedido-med-b',
      status: 'open',
      reason: 'fraud',
      amount: 100,
      retainedAmount: 100,
      returnedAmount: 0,
      deadlineAt: expect.stringMatching(ISO_MS),
      overdue: false,
      decidedAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(med.deadlineAt) - Date.parse(med.createdAt)).toBeCloseTo(SEVEN_DAYS_MS, -4);
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 195, reserved: 100 });
    const created = await deliveredEvent(shop, `evt_${med.id}_created`);
    expect(created).toMatchObject({ event: 'med.created', data: { id: med.id, status: 'open', retainedAmount: 100 } });

    const decided = await decide(med.id, 'accepted');
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.data).toMatchObject({
      id: med.id,
      status: 'accepted',
      returnedAmount: 100,
      decidedAt: expect.stringMatching(ISO_MS),
    });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 195, reserved: 0 });
    expect(await transaction(shop, chargeB.id)).toMatchObject({ status: 'refunded', refundedAmount: 100 });

    const updated = await deliveredEvent(shop, `evt_${med.id}_accepted`);
    expect(updated).toMatchObject({ event: 'med.updated', data: { id: med.id, status: 'accepted', returnedAmount: 100 } });
    const refunded = await deliveredEvent(shop, `evt_${chargeB.id}_refunded`);
    expect(refunded).toMatchObject({ event: 'transaction.refunded', data: { id: chargeB.id, status: 'refunded', refundedAmount: 100 } });

    // The same decision again answers the MED; the other one is refused.
    expect((await decide(med.id, 'accepted')).body.data).toMatchObject({ id: med.id, status: 'accepted' });
    const flip = await decide(med.id, 'rejected');
    expect(flip.status).toBe(422);
    expect(flip.body.error.code).toBe('operation_refused');
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('rejected: the retention is released and the charge stays approved', async () => {
    const shop = await openShop();
    const { chargeA } = shop;
    const opened = await openMed({ transactionId: chargeA.id, amount: 50, reason: 'operational_failure' });
    expect(opened.status, opened.text).toBe(201);
    const med = opened.body.data;
    expect(med).toMatchObject({ amount: 50, retainedAmount: 50, reason: 'operational_failure', status: 'open' });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 245, reserved: 50 });

    const decided = await decide(med.id, 'rejected');
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.data).toMatchObject({ status: 'rejected', returnedAmount: 0, retainedAmount: 50 });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 295, reserved: 0 });
    expect(await transaction(shop, chargeA.id)).toMatchObject({ status: 'approved', refundedAmount: 0 });
    expect(await deliveredEvent(shop, `evt_${med.id}_rejected`)).toMatchObject({ event: 'med.updated', data: { status: 'rejected' } });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('partial, then the rest with less available than disputed: only what was retained goes back', async () => {
    const shop = await openShop();
    const { chargeA } = shop;
    await decidedMed({ transactionId: shop.chargeB.id }, 'accepted'); // 195.00 available
    const partial = await openMed({ transactionId: chargeA.id, amount: 30.55 });
    expect(partial.status, partial.text).toBe(201);
    expect(partial.body.data).toMatchObject({ reason: 'fraud', amount: 30.55, retainedAmount: 30.55 });
    const second = await openMed({ transactionId: chargeA.id, amount: 1 });
    expect(second.status).toBe(422);
    expect(second.body.error.code).toBe('operation_refused');
    expect((await decide(partial.body.data.id, 'accepted')).body.data).toMatchObject({ status: 'accepted', returnedAmount: 30.55 });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 164.45, reserved: 0 });
    expect(await transaction(shop, chargeA.id)).toMatchObject({ status: 'approved', refundedAmount: 30.55 });

    // The rest of the charge (169.45) is disputed; 164.45 is available, so that much is retained.
    const rest = await openMed({ transactionId: chargeA.id });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: 169.45, retainedAmount: 164.45 });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 0, reserved: 164.45 });
    expect((await decide(rest.body.data.id, 'accepted')).body.data).toMatchObject({ status: 'accepted', returnedAmount: 164.45 });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 0, reserved: 0 });
    expect(await transaction(shop, chargeA.id)).toMatchObject({ status: 'approved', refundedAmount: 195 });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('refuses what cannot be disputed or decided', async () => {
    const shop = await openShop();
    const { chargeA, chargeB } = shop;
    await decidedMed({ transactionId: chargeB.id }, 'accepted');
    expect(await decidedMed({ transactionId: chargeA.id }, 'accepted')).toMatchObject({ amount: 200, returnedAmount: 195 });
    const pending = await createCharge(shop.merchant.client, { amount: 10 });
    for (const [body, status, code] of [
      [{ transactionId: 'txn_unknown' }, 404, 'not_found'],
      [{ transactionId: pending.id }, 422, 'operation_refused'],
      [{ transactionId: chargeB.id }, 422, 'operation_refused'], // refunded already
      [{ transactionId: chargeA.id, amount: 5.01 }, 422, 'operation_refused'], // 195 of 200 returned
      [{ transactionId: chargeA.id, amount: 1.005 }, 400, 'invalid_request'],
      [{ transactionId: chargeA.id, amount: 0 }, 400, 'invalid_request'],
      [{ amount: 1 }, 400, 'invalid_request'],
      [{ transactionId: chargeA.id, reason: '' }, 400, 'invalid_request'],
      [{ transactionId: chargeA.id, color: 'blue' }, 400, 'invalid_request'],
    ] as const) {
      const res = await openMed(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code, JSON.stringify(body)).toBe(code);
    }
    const unknown = await decide('med_unknown', 'accepted');
    expect(unknown.status).toBe(404);
    const [anyMed] = await live.sql`select id from meds limit 1`;
    const badOutcome = await decide(anyMed!.id as string, 'maybe');
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.error.code).toBe('invalid_request');
  });
});

describe('GET /v1/meds', () => {
  // An account with four MEDs, decided in this order: B disputed whole and accepted; on A, 50.00
  // rejected, 30.55 accepted, then the rest (164.45 retained of 169.45) accepted.
  let shop: Shop;
  beforeAll(async () => {
    shop = await openShop();
    await decidedMed({ transactionId: shop.chargeB.id }, 'accepted');
    await decidedMed({ transactionId: shop.chargeA.id, amount: 50 }, 'rejected');
    await decidedMed({ transactionId: shop.chargeA.id, amount: 30.55 }, 'accepted');
    await decidedMed({ transactionId: shop.chargeA.id }, 'accepted');
  });

  it('lists the account’s MEDs newest first, filtered by status, with pagination', async () => {
    const all = await shop.reader.get('/meds');
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 4, pages: 1 });
    const created = all.body.data.map((m: any) => Date.parse(m.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const accepted = await shop.reader.get('/meds?status=accepted');
    expect(accepted.body.data.map((m: any) => m.status)).toEqual(['accepted', 'accepted', 'accepted']);
    const rejected = await shop.reader.get('/meds?status=rejected');
    expect(rejected.body.data).toHaveLength(1);
    expect((await shop.reader.get('/meds?status=open')).body.data).toEqual([]);
    const page = await shop.reader.get('/meds?page=2&limit=3');
    expect(page.body.pagination).toEqual({ page: 2, limit: 3, total: 4, pages: 2 });
    expect(page.body.data).toEqual([all.body.data[3]]);
    for (const query of ['status=won', 'status=OPEN']) {
      const res = await shop.reader.get(`/meds?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_med_status');
    }
    expect((await shop.reader.get('/meds?limit=101')).body.error.code).toBe('invalid_request');
    for (const page of ['1000000000', String(Number.MAX_SAFE_INTEGER)]) {
      const far = await shop.reader.get(`/meds?page=${page}&limit=100`);
      expect(far.status, page).toBe(200);
      expect(far.body.data).toEqual([]);
      expect(far.body.pagination).toEqual({ page: Number(page), limit: 100, total: 4, pages: 1 });
    }
    expect((await shop.reader.get(`/meds?page=${Number.MAX_SAFE_INTEGER + 1}`)).body.error.code).toBe('invalid_request');
  });

  it('fetches by MED id, transaction id or the order’s externalId, and never another account’s', async () => {
    const all = (await shop.reader.get('/meds?status=accepted')).body.data;
    const onB = all.find((m: any) => m.transactionId === shop.chargeB.id);
    for (const id of [onB.id, shop.chargeB.id, 'pedido-med-b']) {
      const res = await shop.reader.get(`/meds/${id}`);
      expect(res.status, id).toBe(200);
      expect(res.body.data).toEqual(onB);
    }
    // Several MEDs on one charge: its id and externalId name the latest.
    const latestOnA = all.find((m: any) => m.transactionId === shop.chargeA.id);
    expect((await shop.reader.get(`/meds/pedido-med-a`)).body.data).toEqual(latestOnA);
    expect((await shop.reader.get(`/meds/med_unknown`)).status).toBe(404);

    const stranger = await createMerchant(live.stack);
    for (const id of [onB.id, shop.chargeB.id, 'pedido-med-b']) {
      const res = await stranger.client.get(`/meds/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await stranger.client.get('/meds')).body.data).toEqual([]);
  });
});

describe('pixctl meds', () => {
  it('opens and decides a MED from the command line', async () => {
    const { merchant } = await openShop();
    const charge = await approvedCharge(merchant, 20, 'pedido-med-cli');
    const opened = await runPixctl(live.stack, ['meds', 'open', charge.id, '--amount', '5.5', '--reason', 'operational_failure', '--json']);
    expect(opened.code, opened.stderr).toBe(0);
    const med = JSON.parse(opened.stdout);
    expect(med).toMatchObject({
      id: expect.stringMatching(/^med_/),
      transactionId: charge.id,
      amount: 5.5,
      reason: 'operational_failure',
      status: 'open',
    });

    const wrong = await runPixctl(live.stack, ['meds', 'decide', med.id, '--outcome', 'maybe']);
    expect(wrong.code).toBe(2);
    const decided = await runPixctl(live.stack, ['meds', 'decide', med.id, '--outcome', 'rejected']);
    expect(decided.code, decided.stderr).toBe(0);
    expect(decided.stdout).toMatch(/^status\s+rejected$/m);
    const refused = await runPixctl(live.stack, ['meds', 'open', 'txn_unknown']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not_found|não encontrada/);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
