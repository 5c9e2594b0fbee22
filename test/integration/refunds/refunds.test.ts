// Operator refunds (books.md, "Refunds") end to end on the real stack: charges paid through the
// simulator, refunds asked for through the admin API and settled by the simulated network (the admin
// completion), the balances and the ledger checked to the centavo, idempotency under concurrency (one
// key, and two keys racing for the last refundable centavos), every refusal, and the refund.* and
// transaction.refunded webhooks delivered and their signatures verified. Each test opens its own shop
// (merchant, webhook endpoint, approved charges) and brings it where it starts, so it stands alone.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, newKey, payCharge } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { client, createKey, createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { admin, ADMIN_TOKEN, http } from '../../helpers/stack.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Refunds settle only through the admin completion here.
const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
let receiver: Receiver;

/**
 * What each test starts from, made for it alone: a merchant (fee 1.00 + 1 %) with a reading key, a webhook
 * endpoint at the receiver, and two approved charges: A of 200.00 (net 197.00) and B of 100.00 (net 98.00).
 */
interface Shop {
  merchant: Awaited<ReturnType<typeof createMerchant>>;
  /** A second key, for reads: the first one's quota goes to charges. */
  reader: ReturnType<typeof client>;
  secret: string;
  chargeA: any;
  chargeB: any;
}

async function approvedCharge(m: Awaited<ReturnType<typeof createMerchant>>, amount: number): Promise<any> {
  const charge = await createCharge(m.client, { amount });
  const paid = await payCharge(live.stack, charge.id);
  expect(paid.status, paid.text).toBe(200);
  await eventually(async () => {
    const [row] = await live.sql`select status from transactions where id = ${charge.id}`;
    return row?.status === 'approved';
  }, 20_000);
  return charge;
}

async function openShop(): Promise<Shop> {
  const merchant = await createMerchant(live.stack, { fees: { charge: { fixed: 1, percent: 1 } } });
  const reader = client(live.stack, (await createKey(live.stack, merchant.account.id)).key);
  const endpoint = await admin(live.stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url });
  expect(endpoint.status, endpoint.text).toBe(201);
  const chargeA = await approvedCharge(merchant, 200);
  const chargeB = await approvedCharge(merchant, 100);
  return { merchant, reader, secret: endpoint.body.data.secret, chargeA, chargeB };
}

const refund = (transactionId: string, body: Record<string, unknown>, key: string | null = newKey('r')) =>
  http('POST', `${live.stack.adminUrl}/transactions/${transactionId}/refunds`, {
    body,
    token: ADMIN_TOKEN,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
const complete = (id: string, outcome: 'approved' | 'failed') =>
  admin(live.stack, 'POST', `/simulator/refunds/${id}/complete`, { outcome });

/** A refund of `amount` reais of the charge (its whole rest without one), asked for and approved by the network. */
async function refundApproved(transactionId: string, amount?: number): Promise<void> {
  const created = await refund(transactionId, amount === undefined ? {} : { amount });
  expect(created.status, created.text).toBe(201);
  const settled = await complete(created.body.data.id, 'approved');
  expect(settled.status, settled.text).toBe(200);
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
  return event;
}

function expectRefused(res: { status: number; body: any; text: string }, words: RegExp): void {
  expect(res.status, res.text).toBe(422);
  expect(res.body.error.code).toBe('operation_refused');
  expect(res.body.error.message).toMatch(words);
}

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe('refunds', () => {
  it('starts from the two approved charges', async () => {
    const shop = await openShop();
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 295, reserved: 0 });
  });

  it('a partial refund: reserved at once, approved by the network, the charge partly refunded', async () => {
    const shop = await openShop();
    const { merchant, chargeA } = shop;
    const key = newKey('r');
    const created = await refund(chargeA.id, { amount: 50, reason: 'Pedido cancelado' }, key);
    expect(created.status, created.text).toBe(201);
    expect(created.body.idempotent).toBe(false);
    const rfd = created.body.data;
    expect(rfd).toEqual({
      id: expect.stringMatching(/^rfd_[0-9a-f]{24}$/),
      transactionId: chargeA.id,
      amount: 50,
      reason: 'Pedido cancelado',
      status: 'pending',
      failureReason: null,
      endToEndId: expect.stringMatching(/^D/),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      settledAt: null,
    });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 245, reserved: 50 });
    await expectLedgerConsistent(live.stack.databaseUrl);

    const repeated = await refund(chargeA.id, { amount: 50, reason: 'Pedido cancelado' }, key);
    expect(repeated.status, repeated.text).toBe(200);
    expect(repeated.body).toMatchObject({ idempotent: true, data: { id: rfd.id } });
    const conflict = await refund(chargeA.id, { amount: 40, reason: 'Pedido cancelado' }, key);
    expect(conflict.status, conflict.text).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');

    const settled = await complete(rfd.id, 'approved');
    expect(settled.status, settled.text).toBe(200);
    expect(settled.body.data).toMatchObject({ id: rfd.id, status: 'approved', settledAt: expect.stringMatching(ISO_MS) });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 245, reserved: 0 });
    expect(await transaction(shop, chargeA.id)).toMatchObject({ status: 'approved', refundedAmount: 50 });
    await expectLedgerConsistent(live.stack.databaseUrl);

    const shown = await admin(live.stack, 'GET', `/refunds/${rfd.id}`);
    expect(shown.body.data).toEqual(settled.body.data);
    const listed = await admin(live.stack, 'GET', `/transactions/${chargeA.id}/refunds`);
    expect(listed.body.data).toEqual([settled.body.data]);

    const createdEvent = await deliveredEvent(shop, `evt_${rfd.id}_created`);
    expect(createdEvent).toMatchObject({ event: 'refund.created', data: { id: rfd.id, status: 'pending', amount: 50 } });
    const approvedEvent = await deliveredEvent(shop, `evt_${rfd.id}_approved`);
    expect(approvedEvent).toMatchObject({ event: 'refund.approved', data: { id: rfd.id, status: 'approved' } });

    // On the account's statement the reservation is the refund's entry (approval moves only reserved money).
    const window = `from=${encodeURIComponent(rfd.createdAt)}&to=${encodeURIComponent(new Date(Date.parse(rfd.createdAt) + 60_000).toISOString())}`;
    const statement = await admin(live.stack, 'GET', `/accounts/${merchant.account.id}/statement?${window}`);
    expect(statement.status, statement.text).toBe(200);
    const refundEntries = statement.body.data.entries.filter((entry: { transactionId: string }) => entry.transactionId === chargeA.id);
    expect(refundEntries).toEqual([expect.objectContaining({ kind: 'refund', amount: -50 })]);
    const sum = statement.body.data.entries.reduce((total: number, entry: { amount: number }) => total + Math.round(entry.amount * 100), 0);
    expect(Math.round(statement.body.data.openingBalance * 100) + sum).toBe(Math.round(statement.body.data.closingBalance * 100));
  });

  it('refuses more than is refundable, and two keys racing for the last centavos refund it once', async () => {
    const shop = await openShop();
    const { chargeA } = shop;
    await refundApproved(chargeA.id, 50);
    expectRefused(await refund(chargeA.id, { amount: 150.01 }), /excede o devolvível: R\$ 150,00/);
    const raced = await Promise.all([refund(chargeA.id, { amount: 150 }), refund(chargeA.id, { amount: 150 }), refund(chargeA.id, {})]);
    expect(raced.map((r) => r.status).sort()).toEqual([201, 422, 422]);
    const won = raced.find((r) => r.status === 201)!.body.data;
    for (const lost of raced.filter((r) => r.status === 422))
      expect(lost.body.error.message).toMatch(/excede o devolvível|Nada a devolver/);
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 95, reserved: 150 });

    // Failed at the network: the reservation comes back; what was reserved is refundable again.
    const failed = await complete(won.id, 'failed');
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.data).toMatchObject({ status: 'failed', failureReason: 'failed_by_operator' });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 245, reserved: 0 });
    expect((await deliveredEvent(shop, `evt_${won.id}_failed`)).event).toBe('refund.failed');
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('concurrent requests with one key make one refund; the rest of the charge refunds it whole', async () => {
    const shop = await openShop();
    const { chargeA } = shop;
    await refundApproved(chargeA.id, 50);
    const key = newKey('r');
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(chargeA.id, {}, key)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(answers.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const rfd = answers[0]!.body.data;
    expect(rfd.amount).toBe(150);
    const rows = await live.sql`select id from refunds where idempotency_key = ${key}`;
    expect(rows).toHaveLength(1);

    expect((await complete(rfd.id, 'approved')).status).toBe(200);
    expect(await transaction(shop, chargeA.id)).toMatchObject({ status: 'refunded', refundedAmount: 200 });
    const refunded = await deliveredEvent(shop, `evt_${chargeA.id}_refunded`);
    expect(refunded).toMatchObject({ event: 'transaction.refunded', data: { id: chargeA.id, status: 'refunded', refundedAmount: 200 } });
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 95, reserved: 0 });
    expectRefused(await refund(chargeA.id, {}), /cobrança aprovada .*refunded/);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('refuses past the 90-day window, a transaction that is not a charge, and an available balance short of the amount', async () => {
    const shop = await openShop();
    const { merchant, chargeB } = shop;
    await refundApproved(shop.chargeA.id);
    await live.sql`update transactions set approved_at = now() - interval '91 days' where id = ${chargeB.id}`;
    expectRefused(await refund(chargeB.id, { amount: 1 }), /prazo de devolução \(90 dias/);
    await live.sql`update transactions set approved_at = now() where id = ${chargeB.id}`;

    const pending = await createCharge(merchant.client, { amount: 10 });
    expectRefused(await refund(pending.id, {}), /cobrança aprovada .*pending/);

    // The account received 98.00 of chargeB (the fee stays with the platform) and has 95.00: short.
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 95, reserved: 0 });
    expectRefused(await refund(chargeB.id, {}), /Saldo disponível da conta insuficiente/);
    expect(await balance(shop)).toEqual({ currency: 'BRL', available: 95, reserved: 0 });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('answers the key and not-found rules', async () => {
    const { chargeB } = await openShop();
    const missing = await refund(chargeB.id, {}, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('idempotency_key_required');
    const malformed = await refund(chargeB.id, {}, 'chave com espaço');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_idempotency_key');
    expect((await refund('txn_000000000000000000000000', {})).status).toBe(404);
    expect((await admin(live.stack, 'GET', '/refunds/rfd_000000000000000000000000')).status).toBe(404);
  });
});
