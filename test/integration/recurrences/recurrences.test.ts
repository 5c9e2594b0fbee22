// Pix Automático over HTTP on the simulator: a recurrence's creation (fields, authorization BR Code
// and QR, idempotency, validation with `param`, a company receiver), the payer's answers (authorize,
// reject, cancel), the cycle charge created at once inside the lead window, paid or declined by the
// payer's bank (retried with three_in_seven_days, else failed), the merchant's cancellation cancelling
// the cycles not yet due (a bare cycleCancelled signal from someone who reached Temporal cancels nothing),
// journey 3 (the first payment authorizes), and a variable amount's cycles.
import { describe, expect, it } from 'vitest';
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { decodeQrPngBase64 } from '../../../src/domain/qrcode.js';
import { newKey, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { CNPJ, CPF, createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';
import { poll } from '../../helpers/probe.js';
import { admin, http } from '../../helpers/stack.js';
import { day, recurrenceBody } from '../../helpers/recurrences.js';
import { sendBareCycleCancelled } from '../../helpers/workflow-history.js';

describe('recurrences (Pix Automático) on the simulator', () => {
  const live = liveStack();

  type Merchant = Awaited<ReturnType<typeof createMerchant>>;
  const post = (m: Merchant, body: unknown, key: string | null = newKey('rec')) =>
    m.client.post('/recurrences', body, key === null ? {} : { 'Idempotency-Key': key });
  const del = (m: Merchant, id: string) => http('DELETE', `${live.stack.baseUrl}/recurrences/${id}`, { token: m.key });
  const simulator = (id: string, action: string, body?: unknown) =>
    admin(live.stack, 'POST', `/simulator/recurrences/${id}/${action}`, body);

  async function created(m: Merchant, overrides: Record<string, unknown> = {}) {
    const res = await post(m, recurrenceBody(overrides));
    if (res.status !== 201) throw new Error(`recurrence creation answered ${res.status}: ${res.text}`);
    return res.body.data;
  }

  /** The recurrence's cycle charges as GET /v1/transactions?recurrenceId= lists them. */
  async function cyclesOf(m: Merchant, recurrenceId: string, count = 1): Promise<any[]> {
    return poll(
      () => m.client.get(`/transactions?recurrenceId=${recurrenceId}`),
      (res) => (res.body.data.length >= count && res.body.data.every((t: any) => t.pix) ? res.body.data : undefined),
      { timeoutMs: 20_000 },
    );
  }

  async function eventsOf(recurrenceId: string) {
    return live.sql<
      { id: string; type: string; payload: any }[]
    >`select id, type, payload from events where recurrence_id = ${recurrenceId} order by created_at`;
  }

  it('creates a recurrence pending authorization with its fields and an authorization BR Code whose QR is exactly that text; a repeat answers it', async () => {
    const m = await createMerchant(live.stack);
    const key = newKey('rec');
    const askedAt = Date.now();
    const res = await post(m, recurrenceBody({ endDate: day(200), retryPolicy: 'three_in_seven_days' }), key);
    const answeredAt = Date.now();
    expect(res.status).toBe(201);
    const rec = res.body.data;
    expect(rec).toMatchObject({
      externalId: key,
      status: 'pending_authorization',
      payer: { name: 'Maria da Silva', document: CPF.validDigits },
      contract: 'CTR-2026-0042',
      description: 'Academia plano mensal',
      frequency: 'monthly',
      firstDueDate: day(5),
      endDate: day(200),
      amount: 99.9,
      minimumAmount: null,
      payerMaximumAmount: null,
      retryPolicy: 'three_in_seven_days',
      firstPaymentTransactionId: null,
      nextDueDate: day(5),
      cancelledBy: null,
      authorizedAt: null,
    });
    expect(rec.id).toMatch(/^rec_[0-9a-f]{24}$/);
    // Seven days after the engine took the request, a moment between its sending and its answer (not after createdAt:
    // that is PostgreSQL's now() at the insert, later by however long the engine took in between).
    const expiresAt = Date.parse(rec.authorization.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(askedAt + 7 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(answeredAt + 7 * 86_400_000);
    expect(parseBrCode(rec.authorization.copyPaste)).toMatchObject({ ok: true });
    expect(decodeQrPngBase64(rec.authorization.qrCodeBase64)).toBe(rec.authorization.copyPaste);

    const repeated = await post(m, recurrenceBody({ endDate: day(200), retryPolicy: 'three_in_seven_days' }), key);
    expect(repeated.status).toBe(200);
    expect(repeated.body.data.id).toBe(rec.id);
    expect((await post(m, recurrenceBody({ amount: 10 }), key)).body.error.code).toBe('idempotency_conflict');

    expect((await m.client.get(`/recurrences/${rec.id}`)).body.data.id).toBe(rec.id);
    expect((await m.client.get(`/recurrences/${key}`)).body.data.id).toBe(rec.id);
    expect((await m.client.get('/recurrences/rec_000000000000000000000000')).status).toBe(404);
    const listed = await m.client.get('/recurrences?status=pending_authorization');
    expect(listed.body.data.map((r: any) => r.id)).toEqual([rec.id]);
    expect(listed.body.pagination).toMatchObject({ total: 1 });
    expect((await m.client.get('/recurrences?status=paid')).body.error.code).toBe('invalid_status');
  });

  it.each([
    { label: 'both amount and minimumAmount', body: { minimumAmount: 10 }, param: '/minimumAmount' },
    { label: 'a first due date too soon', body: { firstDueDate: day(2) }, param: '/firstDueDate' },
    { label: 'an end date before the first', body: { endDate: day(4) }, param: '/endDate' },
    { label: 'an invalid payer document', body: { payer: { name: 'Maria da Silva', document: CPF.invalid } }, param: '/payer/document' },
    { label: 'a contract with spaces', body: { contract: 'CTR 1' }, param: '/contract' },
    { label: 'a description of 36 characters', body: { description: 'x'.repeat(36) }, param: '/description' },
    { label: 'an unknown frequency', body: { frequency: 'daily' }, param: '/frequency' },
    { label: 'an unknown field', body: { interval: 2 }, param: '/interval' },
    { label: "an amount above the account's charge limit", body: { amount: 10_000.01 }, param: '/amount' },
    {
      label: "a variable amount's floor above the account's charge limit",
      body: { amount: undefined, minimumAmount: 10_000.01 },
      param: '/minimumAmount',
    },
    {
      label: 'a first payment above what a BR Code can carry',
      body: { firstPayment: { amount: 50_179_853_623.88 } },
      param: '/firstPayment/amount',
    },
  ])('refuses $label with 400 naming it, creating nothing', async ({ body, param }) => {
    const m = await createMerchant(live.stack);
    const res = await post(m, recurrenceBody(body));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
    const [row] = await live.sql<{ count: bigint }[]>`select count(*) from recurrences where account_id = ${m.account.id}`;
    expect(Number(row!.count)).toBe(0);
  });

  it('keeps metadata: returned on the recurrence, compared for idempotency, refused past its limits naming the key', async () => {
    const m = await createMerchant(live.stack);
    const key = newKey('rec');
    const metadata = { customerId: 'c-42', plan: 'ouro' };
    const res = await post(m, recurrenceBody({ metadata }), key);
    expect(res.status).toBe(201);
    expect(res.body.data.metadata).toEqual(metadata);
    expect((await m.client.get(`/recurrences/${res.body.data.id}`)).body.data.metadata).toEqual(metadata);
    expect((await post(m, recurrenceBody({ metadata }), key)).status).toBe(200);
    expect((await post(m, recurrenceBody({ metadata: { customerId: 'c-43' } }), key)).body.error.code).toBe('idempotency_conflict');
    const tooLong = await post(m, recurrenceBody({ metadata: { note: 'x'.repeat(501) } }));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_request', param: '/metadata/note' });
    expect((await post(m, recurrenceBody())).body.data.metadata).toEqual({});
  });

  it('a first payment the account refuses (below its fee) leaves a recurrence its workflow runs: the merchant can still cancel it', async () => {
    const m = await createMerchant(live.stack, { fees: { charge: { fixed: 1, percent: 0 } } });
    const key = newKey('rec');
    // Within the account's limits (from R$ 1,00), which are checked before anything is kept.
    const refused = await post(m, recurrenceBody({ firstPayment: { amount: 1 } }), key);
    expect(refused.status, refused.text).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    const stored = await m.client.get(`/recurrences/${key}`);
    expect(stored.status).toBe(200);
    const cancelled = await del(m, stored.body.data.id);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
  });

  it('refuses a receiver that is not a company (CPF) with 422 operation_refused', async () => {
    const m = await createMerchant(live.stack, { document: generateCpf() });
    const res = await post(m, recurrenceBody());
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('operation_refused');
  });

  it('journey 2: authorized, the cycle inside the lead window is created at once as a charge, paid by the payer bank, events sent', async () => {
    const m = await createMerchant(live.stack);
    const rec = await created(m, { endDate: day(40) });
    const authorized = await simulator(rec.id, 'authorize', { maximumAmount: 150 });
    expect(authorized.status).toBe(200);
    expect(authorized.body.data).toMatchObject({ status: 'active', payerMaximumAmount: 150 });
    expect(authorized.body.data.authorizedAt).not.toBeNull();
    expect((await simulator(rec.id, 'reject')).body.error.code).toBe('invalid_recurrence_status');

    const [cycle] = await cyclesOf(m, rec.id);
    expect(cycle).toMatchObject({ type: 'payment', status: 'pending', amount: 99.9, dueDate: day(5), recurrenceId: rec.id });
    expect(cycle.id).toMatch(/^txn_/);
    const paid = await admin(live.stack, 'POST', `/simulator/charges/${cycle.id}/pay`);
    expect(paid.status).toBe(200);
    await waitForStatus(m.client, cycle.id, 'approved');
    expect((await m.client.get(`/transactions?recurrenceId=${rec.id}&status=approved`)).body.data).toHaveLength(1);
    const events = await eventsOf(rec.id);
    expect(events.map((e) => e.id)).toEqual([`evt_${rec.id}_active`]);
    expect(events[0]!.payload).toMatchObject({ event: 'recurrence.updated', data: { id: rec.id, status: 'active' } });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  const cycleMetrics = async () => {
    const families = parsePrometheusText((await http('GET', live.stack.adminUrl.replace(/\/admin$/, '/metrics'))).text);
    return {
      retried: sampleValue(families, 'pix_recurrence_cycles_total', { outcome: 'retried' }),
      failed: sampleValue(families, 'pix_recurrence_cycles_total', { outcome: 'failed' }),
      active: sampleValue(families, 'pix_recurrences_active'),
    };
  };

  it('a declined debit is retried three times with three_in_seven_days, then the cycle fails; without it, it fails at once', async () => {
    const before = await cycleMetrics();
    const m = await createMerchant(live.stack);
    const retried = await created(m, { retryPolicy: 'three_in_seven_days' });
    await simulator(retried.id, 'authorize');
    const [cycle] = await cyclesOf(m, retried.id);
    const decline = () => admin(live.stack, 'POST', `/simulator/charges/${cycle.id}/decline`);
    for (const retryDay of [day(6), day(8), day(11)]) {
      expect((await decline()).status).toBe(200);
      await eventually(async () => {
        const [row] = await live.sql<{ days: string[] }[]>`
          select array(select to_char(d, 'YYYY-MM-DD') from unnest(retry_requested_on) d) as days
          from simulator_charges where transaction_id = ${cycle.id}`;
        return row!.days.at(-1) === retryDay || undefined;
      });
      expect((await m.client.get(`/transactions/${cycle.id}`)).body.data.status).toBe('pending');
    }
    expect((await decline()).status).toBe(200);
    await waitForStatus(m.client, cycle.id, 'failed');

    const once = await created(m, { payer: { name: 'Empresa Pagadora', document: CNPJ.valid } });
    await simulator(once.id, 'authorize');
    const [single] = await cyclesOf(m, once.id);
    expect((await admin(live.stack, 'POST', `/simulator/charges/${single.id}/decline`)).status).toBe(200);
    await waitForStatus(m.client, single.id, 'failed');

    // The operator's dashboard: three new debit attempts, two cycles failed, these recurrences active.
    const after = await cycleMetrics();
    expect(after.retried - before.retried).toBe(3);
    expect(after.failed - before.failed).toBe(2);
    expect(after.active).toBeGreaterThanOrEqual(2);
  });

  it('the merchant cancels (DELETE): cancelledBy merchant, the cycle not yet due is cancelled; the payer cancels and rejects too', async () => {
    const m = await createMerchant(live.stack);
    const rec = await created(m);
    await simulator(rec.id, 'authorize');
    const [cycle] = await cyclesOf(m, rec.id);
    const cancelled = await del(m, rec.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant', nextDueDate: null });
    const charge = await waitForStatus(m.client, cycle.id, 'cancelled');
    expect(charge.expired).toBe(false);
    expect((await del(m, rec.id)).body.error.code).toBe('invalid_recurrence_status');

    const byPayer = await created(m);
    await simulator(byPayer.id, 'authorize');
    expect((await simulator(byPayer.id, 'cancel')).body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'payer' });
    const rejected = await created(m);
    expect((await simulator(rejected.id, 'reject')).body.data).toMatchObject({ status: 'rejected' });
    expect((await eventsOf(rejected.id)).map((e) => e.id)).toEqual([`evt_${rejected.id}_rejected`]);
  });

  it('a bare cycleCancelled signal (no arguments, no key) is only a hint: the recurrence is active, so its cycle stays pending and is paid', async () => {
    const m = await createMerchant(live.stack);
    const rec = await created(m);
    await simulator(rec.id, 'authorize');
    const [cycle] = await cyclesOf(m, rec.id);
    // As `temporal workflow signal -w charge:<acc>:rec_…:cycle:<date> --name cycleCancelled` sends it.
    await sendBareCycleCancelled(m.account.id, rec.id, cycle.dueDate);
    expect((await m.client.get(`/transactions/${cycle.id}`)).body.data.status).toBe('pending');
    expect((await m.client.get(`/recurrences/${rec.id}`)).body.data.status).toBe('active');
    expect((await admin(live.stack, 'POST', `/simulator/charges/${cycle.id}/pay`)).status).toBe(200);
    await waitForStatus(m.client, cycle.id, 'approved');
  });

  it('journey 3: the first payment is an ordinary charge whose payment authorizes the recurrence', async () => {
    const m = await createMerchant(live.stack);
    const rec = await created(m, { firstPayment: { amount: 49.9 } });
    expect(rec.firstPaymentTransactionId).toMatch(/^txn_/);
    const first = (await m.client.get(`/transactions/${rec.firstPaymentTransactionId}`)).body.data;
    expect(first).toMatchObject({ status: 'pending', amount: 49.9, recurrenceId: null });
    expect((await admin(live.stack, 'POST', `/simulator/charges/${first.id}/pay`)).status).toBe(200);
    await waitForStatus(m.client, first.id, 'approved');
    await poll(
      () => m.client.get(`/recurrences/${rec.id}`),
      (res) => res.body.data.status === 'active' || undefined,
    );
  });

  it('a variable amount: the business creates each cycle within minimumAmount and payerMaximumAmount', async () => {
    const m = await createMerchant(live.stack);
    const rec = await created(m, { amount: undefined, minimumAmount: 50 });
    const cycle = (body: unknown, key = newKey('cyc')) => m.client.post(`/recurrences/${rec.id}/charges`, body, { 'Idempotency-Key': key });
    expect((await cycle({ dueDate: day(5), amount: 80 })).body.error.code).toBe('operation_refused'); // not authorized yet
    await simulator(rec.id, 'authorize', { maximumAmount: 100 });
    expect((await cycle({ dueDate: day(5), amount: 49.99 })).status).toBe(422);
    expect((await cycle({ dueDate: day(5), amount: 100.01 })).status).toBe(422);
    expect((await cycle({ dueDate: day(1), amount: 80 })).body.error).toMatchObject({ code: 'invalid_request', param: '/dueDate' });
    const key = newKey('cyc');
    const res = await cycle({ dueDate: day(5), amount: 80, description: 'Consumo de outubro' }, key);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 80, dueDate: day(5), recurrenceId: rec.id, description: 'Consumo de outubro' });
    expect((await cycle({ dueDate: day(5), amount: 80, description: 'Consumo de outubro' }, key)).status).toBe(200);

    const fixed = await created(m);
    await simulator(fixed.id, 'authorize');
    expect(
      (await m.client.post(`/recurrences/${fixed.id}/charges`, { dueDate: day(5), amount: 80 }, { 'Idempotency-Key': newKey() })).status,
    ).toBe(422);
  });
});
