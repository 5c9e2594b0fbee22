// Reconciliation of a bcb-api-pix route against the conformance fake PSP's own lists (books.md,
// "Reconciliation against the PSP"): the engine as a real process on PostgreSQL and Temporal (reached
// through a relay the test can cut), its route a routes file naming the fake. The PSP is made to hold
// every discrepancy the issue names — a Pix with no txid, one with a txid no charge has, one of another
// amount, one paid after the cob was removed, a devolução and an envio settled at the PSP whose
// webhooks were lost, and a webhook answered 200 by a process that died before acting on it — and a run
// over the window must find each one, correct the safe ones, hold the rest in suspense, keep the ledger
// check clean and suspense equal to what the open items hold; a second run finds the same items and
// moves nothing. Then the devoluções from suspense on the PSP: one the PSP makes, one it does not.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, type Sql } from '../../../src/db/database.js';
import { devolucaoIdOf, idEnvioOf, txidOf } from '../../../src/pix-routes/bcb-api-pix/ids.js';
import { createCharge, newKey, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { client, createKey, createMerchant } from '../../helpers/fixtures.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../../helpers/fake-psp/index.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { freePort } from '../../../src/runtime/free-port.js';
import { ADMIN_TOKEN, admin, http, spawnEngine, startStack, waitReady, type Stack } from '../../helpers/stack.js';
import { tcpRelay, type TcpRelay } from '../../helpers/tcp-relay.js';
import { postTransfer } from '../../helpers/transfers.js';

/** Long enough for a charge paid with another amount to stay pending through the run, short enough to wait for a removal. */
const CHARGE_TTL_SECONDS = 25;
const started = new Date(Date.now() - 60_000);
const PAYER = { nome: 'Beltrano Souza', cpf: '52998224725' };

let psp: FakePsp;
let relay: TcpRelay;
let stack: Stack;
let sql: Sql;
let listenerUrl: string;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
let reader: ReturnType<typeof client>;
let window: { from: string; to: string };
let run: any;
const scene: Record<string, any> = {};

const webhook = (endToEndIds: string[]) => psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds });
const getsOf = (suffix: string) => psp.requests.filter((r) => r.method === 'GET' && r.path.endsWith(suffix)).length;
const cents = (reais: number) => Math.round(reais * 100);

async function statusOf(id: string): Promise<string> {
  return (await sql<{ status: string }[]>`select status from transactions where id = ${id}`)[0]!.status;
}

async function suspenseCents(): Promise<number> {
  const [row] = await sql<{ balance: bigint }[]>`select balance from ledger_balances where id = 'platform:suspense:psp'`;
  return Number(row?.balance ?? 0n);
}

async function postings(): Promise<number> {
  return (await sql<{ n: number }[]>`select count(*)::int as n from ledger_postings`)[0]!.n;
}

/** A charge of `amount` paid at the PSP and approved through its webhook. */
async function paidCharge(amount: number): Promise<{ id: string; endToEndId: string }> {
  const charge = await createCharge(merchant.client, { amount });
  const { endToEndId } = psp.pay(txidOf(charge.id), { payer: PAYER });
  expect(await webhook([endToEndId])).toBe(200);
  await waitForStatus(reader, charge.id, 'approved');
  return { id: charge.id, endToEndId };
}

async function reconcile(): Promise<any> {
  const res = await admin(stack, 'POST', '/reconciliations', { route: 'psp', ...window });
  expect(res.status, res.text).toBe(202);
  return eventually(
    async () => {
      const now = await admin(stack, 'GET', `/reconciliations/${res.body.data.id}`);
      expect(now.body.data.status).not.toBe('failed');
      return now.body.data.status === 'completed' ? now.body.data : undefined;
    },
    60_000,
    200,
  );
}

const itemsAbout = (endToEndId: string) => run.items.filter((item: any) => item.endToEndId === endToEndId);
const resolve = (itemId: string, body: Record<string, unknown>) => admin(stack, 'POST', `/reconciliations/items/${itemId}/resolve`, body);

async function itemNow(itemId: string): Promise<any> {
  const res = await admin(stack, 'GET', `/reconciliations/${run.id}`);
  return res.body.data.items.find((item: any) => item.id === itemId);
}

/** A PSP webhook answered 200 by a process that cannot reach Temporal, which is then killed: the next process acts on the stored hint. */
async function crashAfterWebhook(): Promise<{ id: string; endToEndId: string; hintStored: boolean }> {
  const charge = await createCharge(merchant.client, { amount: 12 });
  await relay.cut();
  const { endToEndId } = psp.pay(txidOf(charge.id), { payer: PAYER });
  expect(await webhook([endToEndId])).toBe(200);
  const hints = await sql<{ name: string }[]>`select name from psp_hints where name = ${charge.id} and signalled_at is null`;
  await stack.processes[0]!.kill();
  expect(await statusOf(charge.id)).toBe('pending');
  await relay.open();
  const next = spawnEngine('all', stack.env);
  stack.processes.push(next);
  await waitReady(stack.rootUrl, next);
  return { id: charge.id, endToEndId, hintStored: hints.length === 1 };
}

beforeAll(async () => {
  psp = await startFakePsp();
  const onPsp = await engineOnFakePsp(psp);
  listenerUrl = onPsp.listenerUrl;
  const relayPort = await freePort();
  relay = tcpRelay(relayPort, inject('temporalAddress'));
  await relay.open();
  stack = await startStack({
    env: {
      ...onPsp.env,
      TEMPORAL_ADDRESS: `127.0.0.1:${relayPort}`,
      CHARGE_TTL_SECONDS: String(CHARGE_TTL_SECONDS),
      // A loaded machine must not turn a creation into a 202.
      ACCEPT_WAIT_MS: '30000',
    },
  });
  sql = connect(stack.databaseUrl, { max: 2 });
  const free = { fixed: 0, percent: 0 };
  merchant = await createMerchant(stack, { route: 'psp', fees: { charge: free, transfer: free } });
  reader = client(stack, (await createKey(stack, merchant.account.id)).key);

  scene.crashed = await crashAfterWebhook();
  scene.funding = await paidCharge(100);

  // Asked of the engine now, ended at the PSP after their workflows' third poll (the next is 40 s away), webhooks lost.
  scene.removed = await createCharge(merchant.client, { amount: 40 });
  scene.refunded = await paidCharge(30);
  const refund = await http('POST', `${stack.adminUrl}/transactions/${scene.refunded.id}/refunds`, {
    body: { amount: 10 },
    token: ADMIN_TOKEN,
    headers: { 'idempotency-key': newKey('r') },
  });
  expect(refund.status, refund.text).toBe(201);
  scene.refund = refund.body.data;
  const transfer = await postTransfer(merchant.client, { amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf' });
  expect(transfer.status, transfer.text).toBe(201);
  scene.transfer = transfer.body.data;
  const devolucaoId = devolucaoIdOf(scene.refund.id);
  const idEnvio = idEnvioOf(scene.transfer.id);
  await eventually(() => getsOf(`/devolucao/${devolucaoId}`) >= 3 && getsOf(`/id-envio/${idEnvio}`) >= 3, 60_000, 50);
  await eventually(async () => (await statusOf(scene.removed.id)) === 'cancelled', 30_000, 100);

  psp.settleDevolucao(scene.refunded.endToEndId, devolucaoId, 'DEVOLVIDO');
  psp.completeEnvio(idEnvio, 'REALIZADO');
  scene.afterRemoval = psp.lists.payAfterRemoval(txidOf(scene.removed.id));
  scene.wrongAmount = await createCharge(merchant.client, { amount: 20 });
  scene.wrongPix = psp.pay(txidOf(scene.wrongAmount.id), { amountCents: 1500, payer: PAYER });
  scene.noTxid = psp.lists.receiveUnasked({ amountCents: 700, payer: PAYER });
  scene.unknownTxid = psp.lists.receiveUnasked({ amountCents: 800, txid: 'pedidoAntigo000000000000000001', payer: PAYER });

  window = { from: started.toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
  scene.postingsBefore = await postings();
  run = await reconcile();
}, 240_000);

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await stack?.stop();
  await relay?.cut();
  await psp?.close();
});

describe('a run on a bcb-api-pix route', () => {
  it('reads every page of the PSP’s lists, each request conforming to the standard', () => {
    const lists = psp.requests.filter((r) => r.method === 'GET' && ['/v2/pix', '/v2/gn/pix/enviados'].includes(r.path));
    expect(new Set(lists.map((r) => r.path))).toEqual(new Set(['/v2/pix', '/v2/gn/pix/enviados']));
    expect(lists.every((r) => r.status === 200 && r.conforms && r.query.includes('paginacao.paginaAtual=0'))).toBe(true);
  });

  it('acted on the hint a crashed process answered 200: stored before the answer, the charge approved and matched', async () => {
    expect(scene.crashed.hintStored).toBe(true);
    expect(await statusOf(scene.crashed.id)).toBe('approved');
    expect(itemsAbout(scene.crashed.endToEndId)).toEqual([]);
    expect(itemsAbout(scene.funding.endToEndId)).toEqual([]);
  });

  it('holds a Pix with no txid and one with a txid the engine never issued in suspense', () => {
    expect(itemsAbout(scene.noTxid.endToEndId)).toEqual([
      expect.objectContaining({ kind: 'unmatched_received', status: 'open', txid: null, pspAmount: 7, transactionId: null }),
    ]);
    expect(itemsAbout(scene.unknownTxid.endToEndId)).toEqual([
      expect.objectContaining({ kind: 'unmatched_received', status: 'open', txid: 'pedidoAntigo000000000000000001', pspAmount: 8 }),
    ]);
  });

  it('holds a Pix of another amount for a pending charge, and one paid after the cob was removed', async () => {
    expect(itemsAbout(scene.wrongPix.endToEndId)).toEqual([
      expect.objectContaining({
        kind: 'amount_mismatch',
        status: 'open',
        transactionId: scene.wrongAmount.id,
        txid: txidOf(scene.wrongAmount.id),
        pspAmount: 15,
        engineAmount: 20,
      }),
    ]);
    expect(itemsAbout(scene.afterRemoval.endToEndId)).toEqual([
      expect.objectContaining({ kind: 'paid_after_cancel', status: 'open', transactionId: scene.removed.id, pspAmount: 40 }),
    ]);
  });

  it('settles the devolução and the envio whose webhooks were lost: corrected, the refund and the transfer approved', async () => {
    const refundItem = run.items.find((item: any) => item.kind === 'refund_unsettled');
    expect(refundItem).toMatchObject({
      status: 'corrected',
      transactionId: scene.refunded.id,
      endToEndId: scene.refunded.endToEndId,
      pspAmount: 10,
    });
    const transferItem = run.items.find((item: any) => item.kind === 'transfer_unsettled');
    expect(transferItem).toMatchObject({ status: 'corrected', transactionId: scene.transfer.id, idEnvio: idEnvioOf(scene.transfer.id) });
    expect((await admin(stack, 'GET', `/refunds/${scene.refund.id}`)).body.data.status).toBe('approved');
    expect(await statusOf(scene.transfer.id)).toBe('approved');
  });

  it('finds nothing else: every PSP record matched or the subject of one item', () => {
    expect(run.items.map((item: any) => item.kind).sort()).toEqual([
      'amount_mismatch',
      'paid_after_cancel',
      'refund_unsettled',
      'transfer_unsettled',
      'unmatched_received',
      'unmatched_received',
    ]);
    // Received: the crashed hint's, the funding, the refunded, after removal, wrong amount, two unasked.
    expect(run.counts).toEqual({ pspReceived: 7, pspSent: 1, pspRefunds: 1, matched: 3, corrected: 2, open: 4 });
  });

  it('keeps the ledger check clean and suspense equal to what the open items hold', async () => {
    const open = run.items.filter((item: any) => item.status === 'open');
    expect(await suspenseCents()).toBe(open.reduce((sum: number, item: any) => sum + cents(item.pspAmount), 0));
    expect(await suspenseCents()).toBe(700 + 800 + 1500 + 4000);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('run again over the same window: the same items, nothing moved', async () => {
    const movedByRun = await postings();
    expect(movedByRun).toBeGreaterThan(scene.postingsBefore);
    const again = await reconcile();
    expect(again.id).not.toBe(run.id);
    const shape = (r: any) => r.items.map((item: any) => [item.id, item.kind, item.runId, item.status]).sort();
    expect(shape(again)).toEqual(shape(run));
    expect(again.counts).toEqual(run.counts);
    expect(await postings()).toBe(movedByRun);
    expect(await suspenseCents()).toBe(7000);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});

describe('devoluções from suspense on the PSP', () => {
  const noTxidItem = () => itemsAbout(scene.noTxid.endToEndId)[0];
  const unknownTxidItem = () => itemsAbout(scene.unknownTxid.endToEndId)[0];

  it('made by the PSP: asked with PUT by the item’s id (natureza ORIGINAL), the money out of suspense once DEVOLVIDO', async () => {
    const item = unknownTxidItem();
    const res = await resolve(item.id, { action: 'refund' });
    expect(res.status, res.text).toBe(200);
    const devolucaoId = item.id.replace('_', '');
    const put = await eventually(() =>
      psp.requests.find((r) => r.method === 'PUT' && r.path === `/v2/pix/${scene.unknownTxid.endToEndId}/devolucao/${devolucaoId}`),
    );
    expect(put).toMatchObject({ status: 201, conforms: true, body: expect.objectContaining({ valor: '8.00', natureza: 'ORIGINAL' }) });
    psp.settleDevolucao(scene.unknownTxid.endToEndId, devolucaoId, 'DEVOLVIDO');
    const settled = await eventually(async () => {
      const now = await itemNow(item.id);
      return now.resolution.refund.status === 'approved' ? now : undefined;
    }, 30_000);
    expect(settled).toMatchObject({ status: 'resolved', resolution: { action: 'refund', refund: { status: 'approved', reason: null } } });
    expect(await suspenseCents()).toBe(7000 - 800);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('not made by the PSP: the item open again, its money still in suspense, credited once, never refunded twice', async () => {
    const item = noTxidItem();
    const res = await resolve(item.id, { action: 'refund' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'resolved', resolution: { action: 'refund', refund: { status: 'pending' } } });
    const devolucaoId = item.id.replace('_', '');
    await eventually(() => psp.devolucao(scene.noTxid.endToEndId, devolucaoId));
    const held = await suspenseCents();
    psp.settleDevolucao(scene.noTxid.endToEndId, devolucaoId, 'NAO_REALIZADO', 'Conta do pagador encerrada');
    const failed = await eventually(async () => {
      const now = await itemNow(item.id);
      return now.resolution?.refund?.status === 'failed' ? now : undefined;
    }, 30_000);
    expect(failed).toMatchObject({
      status: 'open',
      resolvedAt: null,
      pspAmount: 7,
      resolution: { action: 'refund', refund: { status: 'failed', reason: 'Conta do pagador encerrada' } },
    });
    expect(await suspenseCents()).toBe(held);
    await expectLedgerConsistent(stack.databaseUrl);

    const again = await resolve(item.id, { action: 'refund' });
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe('resolution_conflict');
    expect((await resolve(item.id, { action: 'dismiss', note: 'sem dono' })).status).toBe(409);
    expect(psp.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/devolucao/${devolucaoId}`))).toHaveLength(1);

    const credited = await resolve(item.id, { action: 'credit', accountId: merchant.account.id });
    expect(credited.status, credited.text).toBe(200);
    expect(credited.body.data).toMatchObject({ status: 'resolved', resolution: { action: 'credit', accountId: merchant.account.id } });
    expect(await suspenseCents()).toBe(held - 700);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('a later run finds both devoluções agreeing with the engine: no new item, nothing moved', async () => {
    const before = await postings();
    const again = await reconcile();
    expect(again.counts).toMatchObject({ pspReceived: 7, pspRefunds: 3 });
    expect(again.items.map((item: any) => item.id).sort()).toEqual(run.items.map((item: any) => item.id).sort());
    expect(await postings()).toBe(before);
    const holding = again.items.filter(
      (item: any) => item.status === 'open' && ['amount_mismatch', 'paid_after_cancel'].includes(item.kind),
    );
    expect(await suspenseCents()).toBe(holding.reduce((sum: number, item: any) => sum + cents(item.pspAmount), 0));
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
