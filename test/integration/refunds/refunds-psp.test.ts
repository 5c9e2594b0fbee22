// Operator refunds on a bcb-api-pix route end to end against the conformance fake PSP: the engine as
// a real process with a routes file naming the fake and its PSP webhook listener on HTTPS with mTLS,
// PostgreSQL and Temporal. A refund is a devolução of the Pix that paid the charge (PUT
// /pix/{e2eid}/devolucao/{id}), settled from GET on the same path: by polling, or at once when a PSP
// webhook names the Pix. NAO_REALIZADO releases the reservation with the PSP's motivo; a 4xx on the PUT
// releases it only when the devolução reads back as not found.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/database.js';
import { devolucaoIdOf, txidOf } from '../../../src/pix-routes/bcb-api-pix/ids.js';
import { medReturnsWorkflowId } from '../../../src/meds/returns.contract.js';
import { refundWorkflowId } from '../../../src/refunds/contract.js';
import { createCharge, newKey, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { client, createKey, createMerchant } from '../../helpers/fixtures.js';
import type { FakePsp } from '../../helpers/fake-psp/index.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { startPspStack, type PspStack } from '../../helpers/psp-stack.js';
import { ADMIN_TOKEN, admin, http, type Stack } from '../../helpers/stack.js';
import { balanceOf } from '../../helpers/transfers.js';
import { eventTypes, firstAfterSignal, timersBeforeSignal } from '../../helpers/workflow-history.js';

let psp: FakePsp;
let stack: Stack;
let sql: Sql;
let temporal: Client;
let listenerUrl: string;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
let reader: ReturnType<typeof client>;

let running: PspStack;

beforeAll(async () => {
  running = await startPspStack();
  ({ psp, stack, sql, temporal, listenerUrl } = running);
  merchant = await createMerchant(stack, { route: 'psp', fees: { charge: { fixed: 0, percent: 0 } } });
  reader = client(stack, (await createKey(stack, merchant.account.id)).key);
  // Funds beyond the refunded charges, so that refunding a whole charge is never short of balance.
  await paidCharge(100);
}, 120_000);

afterAll(() => running?.stop());

const webhook = (endToEndIds: string[]) => psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds });

/** A charge of `amount` paid at the PSP (approved through its webhook), and the endToEndId of its Pix. */
async function paidCharge(amount: number): Promise<{ id: string; endToEndId: string }> {
  const charge = await createCharge(merchant.client, { amount });
  const { endToEndId } = psp.pay(txidOf(charge.id));
  expect(await webhook([endToEndId])).toBe(200);
  await waitForStatus(reader, charge.id, 'approved');
  return { id: charge.id, endToEndId };
}

/** POST /admin/transactions/{id}/refunds: answered 201 once the PSP holds the devolução (or refused it). */
async function refund(transactionId: string, body: Record<string, unknown>) {
  const key = newKey('r');
  const res = await http('POST', `${stack.adminUrl}/transactions/${transactionId}/refunds`, {
    body,
    token: ADMIN_TOKEN,
    headers: { 'idempotency-key': key },
  });
  expect(res.status, res.text).toBe(201);
  return { key, refund: res.body.data, devolucaoId: devolucaoIdOf(res.body.data.id) };
}

async function chargeNow(id: string): Promise<any> {
  const res = await reader.get(`/transactions/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function refundNow(id: string): Promise<any> {
  const res = await admin(stack, 'GET', `/refunds/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Waits until the refund is no longer pending, then answers it as GET /admin/refunds/{id} does. */
async function settledRefund(id: string, timeoutMs = 30_000): Promise<any> {
  return eventually(async () => {
    const now = await refundNow(id);
    return now.status === 'pending' ? undefined : now;
  }, timeoutMs);
}

const devolucaoCalls = (devolucaoId: string, method: string) =>
  psp.requests.filter((r) => r.method === method && r.path.endsWith(`/devolucao/${devolucaoId}`));

describe('refunds on a bcb-api-pix route', () => {
  it('a devolução asked with PUT, settled DEVOLVIDO at the PSP without a webhook: approved by polling GET, at its liquidação', async () => {
    const charge = await paidCharge(50);
    const before = await balanceOf(reader);
    const { key, refund: created, devolucaoId } = await refund(charge.id, { amount: 20, reason: 'Pedido cancelado' });
    const held = psp.devolucao(charge.endToEndId, devolucaoId)!;
    expect(created).toMatchObject({ amount: 20, status: 'pending', endToEndId: held.rtrId });
    expect(devolucaoCalls(devolucaoId, 'PUT')).toEqual([
      expect.objectContaining({
        path: `/v2/pix/${charge.endToEndId}/devolucao/${devolucaoId}`,
        status: 201,
        conforms: true,
        body: { valor: '20.00', natureza: 'ORIGINAL', descricao: 'Pedido cancelado' },
      }),
    ]);
    expect(await balanceOf(reader)).toEqual({ available: before.available - 20, reserved: before.reserved + 20 });

    psp.settleDevolucao(charge.endToEndId, devolucaoId, 'DEVOLVIDO');
    const approved = await settledRefund(created.id);
    expect(approved).toMatchObject({ status: 'approved', failureReason: null });
    expect(approved.settledAt).toBe(psp.devolucao(charge.endToEndId, devolucaoId)!.horario.liquidacao);
    const types = await eventTypes(temporal.workflow.getHandle(refundWorkflowId(merchant.account.id, key)));
    expect(types).not.toContain('WORKFLOW_EXECUTION_SIGNALED');
    expect(types).toContain('TIMER_FIRED');
    expect(devolucaoCalls(devolucaoId, 'GET').every((r) => r.status === 200 && r.conforms)).toBe(true);

    expect(await balanceOf(reader)).toEqual({ available: before.available - 20, reserved: before.reserved });
    expect(await chargeNow(charge.id)).toMatchObject({ status: 'approved', refundedAmount: 20 });
    await expectLedgerConsistent(stack.databaseUrl);
  }, 60_000);

  it("approved at once by the PSP's webhook naming the Pix (its devoluções inside), and not taken for a MED", async () => {
    const charge = await paidCharge(30);
    const before = await balanceOf(reader);
    const { key, refund: created, devolucaoId } = await refund(charge.id, {});
    expect(created).toMatchObject({ amount: 30, status: 'pending', reason: null });
    expect(devolucaoCalls(devolucaoId, 'PUT')[0]!.body).toEqual({ valor: '30.00', natureza: 'ORIGINAL' });

    psp.settleDevolucao(charge.endToEndId, devolucaoId, 'DEVOLVIDO');
    expect(await webhook([charge.endToEndId])).toBe(200);
    expect(await settledRefund(created.id, 10_000)).toMatchObject({ status: 'approved' });
    const types = await eventTypes(temporal.workflow.getHandle(refundWorkflowId(merchant.account.id, key)));
    expect(timersBeforeSignal(types)).toBe(0);
    expect(firstAfterSignal(types)).toBe('work');

    expect(await chargeNow(charge.id)).toMatchObject({ status: 'refunded', refundedAmount: 30 });
    expect(await balanceOf(reader)).toEqual({ available: before.available - 30, reserved: before.reserved });
    // The webhook also started the Pix's MED check, which read the devolução (nature ORIGINAL) and recorded nothing.
    await eventually(
      async () =>
        (await temporal.workflow.getHandle(medReturnsWorkflowId('psp', charge.endToEndId)).describe()).status.name === 'COMPLETED',
      20_000,
    );
    const [meds] = await sql<{ n: number }[]>`select count(*)::int as n from meds where transaction_id = ${charge.id}`;
    expect(meds!.n).toBe(0);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it("NAO_REALIZADO: failed with the PSP's motivo, the reservation released, the charge as it was", async () => {
    const charge = await paidCharge(40);
    const before = await balanceOf(reader);
    const { refund: created, devolucaoId } = await refund(charge.id, { amount: 15 });
    psp.settleDevolucao(charge.endToEndId, devolucaoId, 'NAO_REALIZADO', 'Conta do pagador encerrada');
    expect(await webhook([charge.endToEndId])).toBe(200);
    expect(await settledRefund(created.id, 10_000)).toMatchObject({ status: 'failed', failureReason: 'Conta do pagador encerrada' });
    expect(await balanceOf(reader)).toEqual(before);
    expect(await chargeNow(charge.id)).toMatchObject({ status: 'approved', refundedAmount: 0 });
    const [event] = await sql<{ n: number }[]>`select count(*)::int as n from events where id = ${`evt_${created.id}_failed`}`;
    expect(event!.n).toBe(1);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('a 4xx on the PUT while the PSP holds the devolução: read back, kept pending (not released), then approved', async () => {
    const charge = await paidCharge(25);
    const before = await balanceOf(reader);
    psp.refuseDevolucoes(charge.endToEndId, { stored: true });
    const { refund: created, devolucaoId } = await refund(charge.id, { amount: 25 });
    expect(devolucaoCalls(devolucaoId, 'PUT').map((r) => r.status)).toEqual([400]);
    expect(devolucaoCalls(devolucaoId, 'GET').map((r) => r.status)).toEqual([200]);
    expect(created).toMatchObject({ status: 'pending', endToEndId: psp.devolucao(charge.endToEndId, devolucaoId)!.rtrId });
    expect(await refundNow(created.id)).toMatchObject({ status: 'pending' });
    expect(await balanceOf(reader)).toEqual({ available: before.available - 25, reserved: before.reserved + 25 });

    psp.settleDevolucao(charge.endToEndId, devolucaoId, 'DEVOLVIDO');
    expect(await webhook([charge.endToEndId])).toBe(200);
    expect(await settledRefund(created.id, 10_000)).toMatchObject({ status: 'approved' });
    expect(await balanceOf(reader)).toEqual({ available: before.available - 25, reserved: before.reserved });
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('a 4xx on the PUT for a devolução the PSP does not have (GET 404): failed, the reservation released', async () => {
    const charge = await paidCharge(35);
    const before = await balanceOf(reader);
    psp.refuseDevolucoes(charge.endToEndId, { stored: false });
    const { refund: created, devolucaoId } = await refund(charge.id, { amount: 10 });
    const failed = await settledRefund(created.id);
    expect(failed).toMatchObject({ status: 'failed', endToEndId: null });
    expect(failed.failureReason).toMatch(/PUT \/pix\/.*: the PSP answered 400 Devolução inválida/);
    expect(devolucaoCalls(devolucaoId, 'PUT').map((r) => r.status)).toEqual([400]);
    expect(devolucaoCalls(devolucaoId, 'GET').map((r) => r.status)).toEqual([404]);
    expect(psp.devolucao(charge.endToEndId, devolucaoId)).toBeUndefined();
    expect(await balanceOf(reader)).toEqual(before);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
