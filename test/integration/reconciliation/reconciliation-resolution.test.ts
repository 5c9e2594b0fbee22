// Money in suspense and its way back (books.md, "Reconciliation against the PSP"), over the real stack
// on the simulator route: a Pix paid for a charge that already expired, and Pix no charge asked for,
// are held in suspense by a run; an operator credits one to an account (a new approved deposit, listed
// like any other, its transaction.approved delivered), refunds another to its payer (a devolução from
// suspense, settled by the simulated network), and dismisses an item that holds no money. Each item
// is resolved once; the ledger check stays clean and suspense equals what the open items still hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { createCharge, payCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { runPixctl } from '../../helpers/pixctl-run.js';
import { admin } from '../../helpers/stack.js';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.js';

// Charges expire at once; the network settles devoluções by itself on the next look.
const live = liveStack({ env: { CHARGE_TTL_SECONDS: '2', SIMULATOR_TRANSFER_DELAY_MS: '0' } });
const PAYER = { name: 'Beltrano Souza', document: '529.982.247-25' };
const started = new Date(Date.now() - 60_000);

let receiver: Receiver;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
let window: { from: string; to: string };
let run: any;
const scene: Record<string, any> = {};

const receivePix = async (body: Record<string, unknown>) => {
  const res = await admin(live.stack, 'POST', '/simulator/pix', { payer: PAYER, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
};
const resolve = (itemId: string, body: Record<string, unknown>) =>
  admin(live.stack, 'POST', `/reconciliations/items/${itemId}/resolve`, body);
const itemAbout = (endToEndId: string) => run.items.find((item: any) => item.endToEndId === endToEndId);

async function reconcile(): Promise<any> {
  const started = await admin(live.stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
  expect(started.status, started.text).toBe(202);
  return eventually(
    async () => {
      const res = await admin(live.stack, 'GET', `/reconciliations/${started.body.data.id}`);
      return res.body.data.status === 'completed' ? res.body.data : undefined;
    },
    60_000,
    200,
  );
}

async function itemNow(itemId: string): Promise<any> {
  const res = await admin(live.stack, 'GET', `/reconciliations/${run.id}`);
  return res.body.data.items.find((item: any) => item.id === itemId);
}

async function suspenseCents(): Promise<number> {
  const [row] = await live.sql<{ balance: bigint }[]>`select balance from ledger_balances where id = 'platform:suspense:simulator'`;
  return Number(row?.balance ?? 0n);
}

beforeAll(async () => {
  receiver = await startReceiver();
  merchant = await createMerchant(live.stack);
  const endpoint = await admin(live.stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url });
  expect(endpoint.status, endpoint.text).toBe(201);

  const expired = await createCharge(merchant.client, { amount: 45 });
  await waitForStatus(merchant.client, expired.id, 'cancelled');
  const code = parseBrCode(expired.pix.copyPaste);
  scene.afterCancel = await receivePix({ txid: code.ok ? code.txid : null, amount: 45 });
  scene.expired = expired;
  scene.toCredit = scene.afterCancel;
  scene.toRefund = await receivePix({ accountId: merchant.account.id, amount: 10 });
  scene.kept = await receivePix({ amount: 5 });

  // A paid charge whose record the network lost: an item that holds no money.
  const paid = await createCharge(merchant.client, { amount: 30 });
  expect((await payCharge(live.stack, paid.id)).status).toBe(200);
  await waitForStatus(merchant.client, paid.id, 'approved');
  await live.sql`delete from simulator_charges where transaction_id = ${paid.id}`;
  scene.lost = paid;

  window = { from: started.toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
  run = await reconcile();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
});

describe('a Pix for a charge already cancelled', () => {
  it('is paid_after_cancel, its money in suspense', () => {
    expect(itemAbout(scene.afterCancel.endToEndId)).toMatchObject({
      kind: 'paid_after_cancel',
      status: 'open',
      transactionId: scene.expired.id,
      pspAmount: 45,
      engineAmount: 45,
    });
  });
});

describe('resolving an item', () => {
  it('credit: a new approved deposit to the account, listed like any other, its transaction.approved delivered', async () => {
    const item = itemAbout(scene.toCredit.endToEndId);
    const before = (await merchant.client.get('/balance')).body.data.available;
    const res = await resolve(item.id, { action: 'credit', accountId: merchant.account.id });
    expect(res.status, res.text).toBe(200);
    const resolved = res.body.data;
    expect(resolved).toMatchObject({
      id: item.id,
      status: 'resolved',
      resolution: { action: 'credit', accountId: merchant.account.id, transactionId: expect.stringMatching(/^txn_/) },
      resolvedAt: expect.any(String),
    });
    const depositId = resolved.resolution.transactionId;
    const deposit = await merchant.client.get(`/transactions/${depositId}`);
    expect(deposit.status, deposit.text).toBe(200);
    expect(deposit.body.data).toMatchObject({
      type: 'deposit',
      direction: 'in',
      method: 'pix',
      status: 'approved',
      amount: 45,
      fee: 0,
      netAmount: 45,
      acquirer: 'simulator',
    });
    const listed = await merchant.client.get('/transactions?limit=100');
    expect(listed.body.data.find((t: any) => t.id === depositId)).toEqual(deposit.body.data);
    expect((await merchant.client.get('/balance')).body.data.available).toBe(before + 45);
    const delivered = await eventually(() => receiver.received.find((r) => JSON.parse(r.rawBody).id === `evt_${depositId}_approved`));
    expect(JSON.parse(delivered.rawBody)).toMatchObject({ event: 'transaction.approved', data: { id: depositId, type: 'deposit' } });

    const again = await resolve(item.id, { action: 'credit', accountId: merchant.account.id });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toEqual(resolved);
    for (const other of [{ action: 'dismiss', note: 'engano' }, { action: 'refund' }, { action: 'credit', accountId: 'acc_other' }]) {
      const conflict = await resolve(item.id, other);
      expect(conflict.status, conflict.text).toBe(409);
      expect(conflict.body.error.code).toBe('resolution_conflict');
    }
  });

  it('refund: a devolução from suspense to the payer, settled by the network, the money out of suspense', async () => {
    const item = itemAbout(scene.toRefund.endToEndId);
    const held = await suspenseCents();
    const res = await resolve(item.id, { action: 'refund' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'resolved', resolution: { action: 'refund', refund: { status: 'pending' } } });
    const settled = await eventually(async () => {
      const now = await itemNow(item.id);
      return now.resolution.refund.status === 'approved' ? now : undefined;
    }, 30_000);
    expect(settled.resolution).toEqual({ action: 'refund', refund: { status: 'approved', reason: null } });
    expect(await suspenseCents()).toBe(held - 1000);
    const again = await resolve(item.id, { action: 'refund' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toEqual(settled);
  });

  it('dismiss: only an item that holds no money, with a note', async () => {
    const kept = itemAbout(scene.kept.endToEndId);
    const refused = await resolve(kept.id, { action: 'dismiss', note: 'sem dono' });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('resolution_conflict');

    const lost = run.items.find((item: any) => item.transactionId === scene.lost.id);
    expect(lost).toMatchObject({ kind: 'missing_at_psp', status: 'open' });
    const noMoney = await resolve(lost.id, { action: 'credit', accountId: merchant.account.id });
    expect(noMoney.status, noMoney.text).toBe(409);
    const dismissed = await resolve(lost.id, { action: 'dismiss', note: '  registro perdido pelo PSP, confirmado por telefone ' });
    expect(dismissed.status, dismissed.text).toBe(200);
    expect(dismissed.body.data.resolution).toEqual({ action: 'dismiss', note: 'registro perdido pelo PSP, confirmado por telefone' });
    expect((await resolve(lost.id, { action: 'dismiss', note: 'registro perdido pelo PSP, confirmado por telefone' })).status).toBe(200);
    expect((await resolve(lost.id, { action: 'dismiss', note: 'outra nota' })).status).toBe(409);
  });

  it('refuses a resolution without its field or with another action’s (400), an unknown item or account (404)', async () => {
    const kept = itemAbout(scene.kept.endToEndId);
    const refused = async (body: Record<string, unknown>, status: number, param?: string, itemId = kept.id) => {
      const res = await resolve(itemId, body);
      expect(res.status, res.text).toBe(status);
      expect(res.body.error.param).toBe(param);
    };
    await refused({ action: 'credit' }, 400, '/accountId');
    await refused({ action: 'dismiss' }, 400, '/note');
    await refused({ action: 'refund', note: 'x' }, 400, '/note');
    await refused({ action: 'refund', accountId: merchant.account.id }, 400, '/accountId');
    await refused({ action: 'burn' }, 400, '/action');
    await refused({ action: 'credit', accountId: 'acc_000000000000000000000000' }, 404, '/accountId');
    await refused({ action: 'refund' }, 404, undefined, 'rci_000000000000000000000000');
    expect((await itemNow(kept.id)).status).toBe('open');
  });

  it('keeps suspense equal to what the open items hold, and the ledger clean; a new run finds the same items', async () => {
    expect(await suspenseCents()).toBe(500);
    await expectLedgerConsistent(live.stack.databaseUrl);
    const again = await reconcile();
    const shape = (r: any) => r.items.map((item: any) => [item.id, item.kind, item.runId]).sort();
    expect(shape(again)).toEqual(shape(run));
    // The devolução from suspense is the PSP's record too, and agrees with the engine.
    expect(again.counts).toMatchObject({ pspRefunds: 1, open: 1 });
    expect(await suspenseCents()).toBe(500);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('shows the credit on the account statement as a deposit', async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await admin(live.stack, 'GET', `/accounts/${merchant.account.id}/statement?from=${window.from}&to=${to}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.entries.filter((e: any) => e.kind === 'deposit').map((e: any) => e.amount)).toEqual([45]);
  });
});

describe('pixctl reconciliations', () => {
  it('runs, lists and shows runs, and resolves an item, as the admin API does', async () => {
    const started = await runPixctl(live.stack, [
      'reconciliations',
      'run',
      'simulator',
      '--from',
      window.from,
      '--to',
      window.to,
      '--json',
    ]);
    expect(started.code, started.stderr).toBe(0);
    const runId = JSON.parse(started.stdout).id;
    expect(runId).toMatch(/^rcn_/);
    await eventually(async () => (await admin(live.stack, 'GET', `/reconciliations/${runId}`)).body.data.status === 'completed', 60_000);

    const listed = await runPixctl(live.stack, ['reconciliations', 'list', '--route', 'simulator', '--limit', '1', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).map((r: any) => r.id)).toEqual([runId]);

    const shown = await runPixctl(live.stack, ['reconciliations', 'show', runId]);
    expect(shown.code, shown.stderr).toBe(0);
    const kept = itemAbout(scene.kept.endToEndId);
    expect(shown.stdout).toContain(kept.id);
    expect(shown.stdout).toMatch(/unmatched_received\s+open/);

    const usage = await runPixctl(live.stack, ['reconciliations', 'resolve', kept.id, '--action', 'burn']);
    expect(usage.code).toBe(2);
    const resolved = await runPixctl(live.stack, [
      ...['reconciliations', 'resolve', kept.id, '--action', 'credit', '--account-id', merchant.account.id, '--json'],
    ]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ id: kept.id, status: 'resolved', resolution: { action: 'credit' } });
    const conflict = await runPixctl(live.stack, ['reconciliations', 'resolve', kept.id, '--action', 'refund']);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/resolution_conflict|resolvido/);
    expect(await suspenseCents()).toBe(0);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
