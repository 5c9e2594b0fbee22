// Reconciliation against the PSP (books.md) on the simulator route, over the real stack: the simulated
// network is made to disagree with the engine the ways it can — Pix no charge asked for
// (POST /admin/simulator/pix), a payment, an envio and a devolução whose notice never reached a
// workflow an operator terminated, a MED devolução and a lost record written into the network's own
// tables (no engine path makes those) — and a run over the window finds one item per disagreement,
// corrects what it can once, puts the money nobody owns in suspense, and a second run over the same
// window finds the same items and moves nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { chargeWorkflowId } from '../../../src/charges/contract.js';
import { refundWorkflowId } from '../../../src/refunds/contract.js';
import { transferWorkflowId } from '../../../src/transfers/contract.js';
import { reconciliationWorkflowId } from '../../../src/reconciliation/contract.js';
import { createCharge, newKey, payCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { admin, ADMIN_TOKEN, http } from '../../helpers/stack.js';
import { cpfKeyBody, completeTransfer, postTransfer } from '../../helpers/transfers.js';
import { historyReader } from '../../helpers/workflow-history.js';
import { loadContract } from '../../helpers/openapi-contract.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';

// Transfers and refunds settle only when the network is told to (admin completion).
const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
const PAYER = { name: 'Fulano de Tal', document: '529.982.247-25' };

let temporal: Client;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
const started = new Date(Date.now() - 60_000);

const txidOf = (charge: any): string => {
  const code = parseBrCode(charge.pix.copyPaste);
  if (!code.ok || code.txid === null) throw new Error('charge without a txid in its BR Code');
  return code.txid;
};
const receivePix = (body: Record<string, unknown>) => admin(live.stack, 'POST', '/simulator/pix', { payer: PAYER, ...body });

async function paidCharge(amount: number): Promise<any> {
  const charge = await createCharge(merchant.client, { amount });
  const paid = await payCharge(live.stack, charge.id);
  expect(paid.status, paid.text).toBe(200);
  return waitForStatus(merchant.client, charge.id, 'approved');
}

async function runReconciliation(window: { from: string; to: string }): Promise<any> {
  const started = await admin(live.stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
  expect(started.status, started.text).toBe(202);
  expect(started.body.data).toMatchObject({ route: 'simulator', status: 'running', ...window, items: [] });
  return eventually(
    async () => {
      const res = await admin(live.stack, 'GET', `/reconciliations/${started.body.data.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.status).not.toBe('failed');
      return res.body.data.status === 'completed' ? res.body.data : undefined;
    },
    60_000,
    200,
  );
}

const byTransaction = (run: any, transactionId: string) => run.items.filter((item: any) => item.transactionId === transactionId);

async function suspenseCents(): Promise<number> {
  const [row] = await live.sql<{ balance: bigint }[]>`select balance from ledger_balances where id = 'platform:suspense:simulator'`;
  return Number(row?.balance ?? 0n);
}

const scene: Record<string, any> = {};
let window: { from: string; to: string };
let first: any;

beforeAll(async () => {
  temporal = await historyReader();
  merchant = await createMerchant(live.stack, { fees: { charge: { fixed: 0.5, percent: 0 } } });

  scene.matched = await paidCharge(80);
  scene.refunded = await paidCharge(60);
  scene.withMed = await paidCharge(50);
  scene.lost = await paidCharge(40);

  // A payment whose notice was lost while the charge's workflow waits: the network holds it, the engine does not.
  scene.late = await createCharge(merchant.client, { amount: 25 });
  const late = await receivePix({ txid: txidOf(scene.late), amount: 25 });
  expect(late.status, late.text).toBe(201);
  scene.latePix = late.body.data;

  // A payment made after an operator terminated the charge's workflow: nobody settles it.
  const orphanKey = newKey('orphan');
  scene.orphan = await createCharge(merchant.client, { amount: 30 }, orphanKey);
  await temporal.workflow.getHandle(chargeWorkflowId(merchant.account.id, orphanKey)).terminate('test: an orphaned charge');
  expect((await payCharge(live.stack, scene.orphan.id)).status).toBe(200);

  scene.short = await createCharge(merchant.client, { amount: 20 });
  expect((await receivePix({ txid: txidOf(scene.short), amount: 19.99 })).status).toBe(201);
  scene.toKey = (await receivePix({ accountId: merchant.account.id, amount: 12.34 })).body.data;
  scene.unknownTxid = (await receivePix({ txid: 'naoemitido123', amount: 7 })).body.data;

  // An envio and a devolução the network settled after their workflows were terminated.
  const transferKey = newKey('t');
  const transfer = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), transferKey);
  expect(transfer.status, transfer.text).toBe(201);
  scene.transfer = transfer.body.data;
  await temporal.workflow.getHandle(transferWorkflowId(merchant.account.id, transferKey)).terminate('test: an orphaned transfer');
  expect((await completeTransfer(live.stack, scene.transfer.id, 'approved')).status).toBe(202);

  const refundKey = newKey('r');
  const refund = await http('POST', `${live.stack.adminUrl}/transactions/${scene.refunded.id}/refunds`, {
    body: { amount: 15 },
    token: ADMIN_TOKEN,
    headers: { 'idempotency-key': refundKey },
  });
  expect(refund.status, refund.text).toBe(201);
  scene.refund = refund.body.data;
  await temporal.workflow.getHandle(refundWorkflowId(merchant.account.id, refundKey)).terminate('test: an orphaned refund');
  expect((await admin(live.stack, 'POST', `/simulator/refunds/${scene.refund.id}/complete`, { outcome: 'approved' })).status).toBe(202);

  // The network returned part of a Pix for a MED, and lost the record of another: no engine path does either.
  const [withMed] = await live.sql<{ e2e: string }[]>`select end_to_end_id as e2e from transactions where id = ${scene.withMed.id}`;
  await live.sql`
    insert into simulator_refunds (refund_id, return_id, amount, status, settled_at, end_to_end_id, nature)
    values ('MEDrecon1', 'D00000000MEDrecon1', 2000, 'approved', now(), ${withMed!.e2e}, 'MED_FRAUDE')`;
  await live.sql`delete from simulator_charges where transaction_id = ${scene.lost.id}`;

  window = { from: started.toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
  first = await runReconciliation(window);
}, 120_000);

afterAll(async () => {
  await temporal?.connection.close();
});

describe('a reconciliation run on the simulator', () => {
  it('finds one item per disagreement, of the kind books.md gives it', () => {
    const kinds = (id: string) => byTransaction(first, id).map((item: any) => `${item.kind}/${item.status}`);
    expect(kinds(scene.matched.id)).toEqual([]);
    expect(kinds(scene.late.id)).toEqual(['late_settlement/corrected']);
    expect(kinds(scene.orphan.id)).toEqual(['late_settlement/corrected']);
    expect(kinds(scene.short.id)).toEqual(['amount_mismatch/open']);
    expect(kinds(scene.transfer.id)).toEqual(['transfer_unsettled/corrected']);
    expect(kinds(scene.refunded.id)).toEqual(['refund_unsettled/corrected']);
    expect(kinds(scene.withMed.id)).toEqual(['med_unrecorded/corrected']);
    expect(kinds(scene.lost.id)).toEqual(['missing_at_psp/open']);
    const unmatched = first.items.filter((item: any) => item.kind === 'unmatched_received');
    expect(unmatched.map((item: any) => [item.endToEndId, item.txid, item.pspAmount, item.status]).sort()).toEqual(
      [
        [scene.toKey.endToEndId, null, 12.34, 'open'],
        [scene.unknownTxid.endToEndId, 'naoemitido123', 7, 'open'],
      ].sort(),
    );
    expect(first.items).toHaveLength(9);
    for (const item of first.items) {
      expect(item).toMatchObject({ id: expect.stringMatching(/^rci_[0-9a-f]{24}$/), runId: first.id, resolution: null, resolvedAt: null });
    }
  });

  it('counts what it read: each PSP record agrees with the engine or is the subject of one item', () => {
    const { counts } = first;
    const aboutRecords = first.items.filter((item: any) => item.kind !== 'missing_at_psp').length;
    expect(counts.pspReceived + counts.pspSent + counts.pspRefunds).toBe(counts.matched + aboutRecords);
    // Five Pix that paid charges at the network (two of them late; the lost one is not listed), three no
    // charge asked for; the envio; the refund's devolução and the MED's.
    expect(counts).toMatchObject({ pspReceived: 8, pspSent: 1, pspRefunds: 2, corrected: 5, open: 4 });
  });

  it('settles the late charges (the waiting workflow ends approved too) and the orphaned transfer and refund', async () => {
    const late = await waitForStatus(merchant.client, scene.late.id, 'approved');
    expect(late).toMatchObject({ amount: 25, netAmount: 24.5 });
    const workflow = temporal.workflow.getHandle(chargeWorkflowId(merchant.account.id, scene.late.externalId ?? scene.late.id));
    await eventually(async () => (await workflow.describe()).status.name === 'COMPLETED', 20_000);
    await waitForStatus(merchant.client, scene.orphan.id, 'approved');
    await waitForStatus(merchant.client, scene.transfer.id, 'approved');
    const refund = await admin(live.stack, 'GET', `/refunds/${scene.refund.id}`);
    expect(refund.body.data.status).toBe('approved');
    const med = await merchant.client.get(`/meds/${scene.withMed.id}`);
    expect(med.status, med.text).toBe(200);
    expect(med.body.data).toMatchObject({ status: 'accepted', amount: 20, reason: 'MED_FRAUDE' });
  });

  it('puts in suspense exactly what the open items that hold money received', async () => {
    expect(await suspenseCents()).toBe(1999 + 1234 + 700);
    const short = byTransaction(first, scene.short.id)[0];
    expect(short).toMatchObject({ pspAmount: 19.99, engineAmount: 20, txid: txidOf(scene.short) });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('finds the same items again over the same window and corrects nothing twice', async () => {
    const [before] = await live.sql<{ postings: bigint }[]>`select count(*) as postings from ledger_postings`;
    const second = await runReconciliation(window);
    expect(second.id).not.toBe(first.id);
    const shape = (run: any) => run.items.map((item: any) => [item.id, item.kind, item.runId, item.status]).sort();
    expect(shape(second)).toEqual(shape(first));
    expect(second.counts).toEqual(first.counts);
    const [after] = await live.sql<{ postings: bigint }[]>`select count(*) as postings from ledger_postings`;
    expect(after!.postings).toBe(before!.postings);
    expect(await suspenseCents()).toBe(3933);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('lists runs newest first, by route, a page at a time; shows one with its items; 404 for none', async () => {
    const listed = await admin(live.stack, 'GET', '/reconciliations?route=simulator&limit=1');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
    expect(listed.body.data[0]).not.toHaveProperty('items');
    const page2 = await admin(live.stack, 'GET', '/reconciliations?route=simulator&limit=1&page=2');
    expect(page2.body.data[0].id).toBe(first.id);
    expect((await admin(live.stack, 'GET', '/reconciliations?route=psp')).body.data).toEqual([]);
    const missing = await admin(live.stack, 'GET', '/reconciliations/rcn_000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('exposes the open items by kind and the last completed run on /metrics', async () => {
    const scraped = await http('GET', `${live.stack.adminUrl.replace(/\/admin$/, '')}/metrics`);
    const metrics = parsePrometheusText(scraped.text);
    const open = (kind: string) => sampleValue(metrics, 'pix_reconciliation_items_open', { route: 'simulator', kind });
    expect([open('amount_mismatch'), open('unmatched_received'), open('missing_at_psp')]).toEqual([1, 2, 1]);
    expect(
      metrics
        .get('pix_reconciliation_items_open')!
        .samples.map((sample) => sample.labels.kind)
        .sort(),
    ).toEqual(['amount_mismatch', 'missing_at_psp', 'unmatched_received']);
    const lastSuccess = sampleValue(metrics, 'pix_reconciliation_last_success_timestamp_seconds', { route: 'simulator' });
    const [latest] = await live.sql<{ at: number }[]>`
      select extract(epoch from max(completed_at))::float8 as at from reconciliation_runs where status = 'completed'`;
    expect(lastSuccess).toBeCloseTo(latest!.at, 3);
  });

  it('runs each window as a workflow of its own', async () => {
    const described = await temporal.workflow.getHandle(reconciliationWorkflowId(first.id)).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect(described.type).toBe('reconciliationWorkflow');
  });
});

describe('the admin OpenAPI document', () => {
  it('describes every answer of the reconciliation routes and of POST /admin/simulator/pix', async () => {
    const contract = await loadContract(live.stack, { url: `${live.stack.adminUrl}/openapi.json`, token: ADMIN_TOKEN });
    const conforms = async (method: string, path: string, template: string, body?: unknown) => {
      const res = await admin(live.stack, method, path, body);
      const operation = contract.operations.find((op) => op.method === method && op.path === template);
      expect(operation, `${method} ${template}`).toBeDefined();
      expect(contract.problems(operation!, res), `${method} ${path} ${res.status}: ${res.text}`).toEqual([]);
      return res;
    };
    const past = { route: 'simulator', from: '2026-01-01T03:00:00Z', to: '2026-01-02T03:00:00Z' };
    expect((await conforms('POST', '/reconciliations', '/reconciliations', past)).status).toBe(202);
    expect((await conforms('POST', '/reconciliations', '/reconciliations', { ...past, route: 'nowhere' })).status).toBe(400);
    expect((await conforms('GET', '/reconciliations?limit=2', '/reconciliations')).status).toBe(200);
    expect((await conforms('GET', `/reconciliations/${first.id}`, '/reconciliations/{id}')).status).toBe(200);
    expect((await conforms('GET', '/reconciliations/rcn_none', '/reconciliations/{id}')).status).toBe(404);
    expect((await conforms('POST', '/simulator/pix', '/simulator/pix', { amount: 1, payer: PAYER })).status).toBe(201);
    const unknownAccount = { amount: 1, accountId: 'acc_none', payer: PAYER };
    expect((await conforms('POST', '/simulator/pix', '/simulator/pix', unknownAccount)).status).toBe(404);
  });
});

describe('starting a run', () => {
  const start = (body: Record<string, unknown>) => admin(live.stack, 'POST', '/reconciliations', body);
  const refused = async (body: Record<string, unknown>, param: string) => {
    const res = await start(body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', param });
  };

  it('refuses a window over 7 days, an empty or reversed one, an instant without an offset, an unknown route', async () => {
    const from = '2026-11-01T03:00:00Z';
    await refused({ route: 'simulator', from, to: '2026-11-08T03:00:00.001Z' }, '/to');
    await refused({ route: 'simulator', from, to: from }, '/to');
    await refused({ route: 'simulator', from, to: '2026-10-31T03:00:00Z' }, '/to');
    await refused({ route: 'simulator', from: '2026-11-01T03:00:00', to: '2026-11-02T03:00:00Z' }, '/from');
    await refused({ route: 'nowhere', from, to: '2026-11-02T03:00:00Z' }, '/route');
    await refused({ from, to: '2026-11-02T03:00:00Z' }, '/route');
    const sevenDays = await start({ route: 'simulator', from, to: '2026-11-08T03:00:00Z' });
    expect(sevenDays.status, sevenDays.text).toBe(202);
  });
});

describe('POST /admin/simulator/pix', () => {
  const refused = async (body: Record<string, unknown>, status: number, param: string) => {
    const res = await admin(live.stack, 'POST', '/simulator/pix', body);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error.param).toBe(param);
  };

  it('answers 201 with the Pix as the network received it', async () => {
    const res = await receivePix({ amount: 3.5 });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toEqual({ endToEndId: expect.stringMatching(/^E\d{20}[0-9a-f]{11}$/), txid: null, amount: 3.5 });
  });

  it('refuses a bad amount, txid or payer (400) and an unknown account (404)', async () => {
    await refused({ amount: 0, payer: PAYER }, 400, '/amount');
    await refused({ amount: 1.001, payer: PAYER }, 400, '/amount');
    await refused({ amount: 1, txid: 'com espaço', payer: PAYER }, 400, '/txid');
    await refused({ amount: 1, payer: { name: 'Fulano', document: '529.982.247-24' } }, 400, '/payer/document');
    await refused({ amount: 1 }, 400, '/payer');
    await refused({ amount: 1, accountId: 'acc_000000000000000000000000', payer: PAYER }, 404, '/accountId');
  });
});
