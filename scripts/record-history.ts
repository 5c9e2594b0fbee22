// Records workflow histories of real runs for the replay tests (test/replay/replay.test.ts).
//
//   npm run record-history                               every scenario
//   npm run record-history -- charge-paid charge-expired
//   npm run record-history -- due-date-charge-paid-late due-date-charge-psp-paid
//   npm run record-history -- refund-approved refund-failed
//   npm run record-history -- reconciliation-run reconciliation-scheduled suspense-refund-approved
//   npm run record-history -- --as settle-dispatches-events charge-paid transfer-approved
//   npm run record-history -- --as remote-route-calls charge-psp-paid transfer-psp-approved
//   npm run record-history -- --as confirm-and-settle charge-psp-paid
//   npm run record-history -- --as local-confirm-and-settle charge-paid
//   npm run record-history -- --as refuse-unencrypted-input transfer-forged-start med-forged-decision charge-forged-signal
//   npm run record-history -- --as coalesced-refresh charge-refresh charge-refresh-concurrent
//   npm run record-history -- --as refunded-charge-status refund-whole-charge refund-approved
//   npm run record-history -- --as recurrence-status-search-attribute recurrence-rejected recurrence-active recurrence-cancelled
//   npm run record-history -- --as transfer-settles-in-accept transfer-approved transfer-failed transfer-psp-approved transfer-pays-charge
//   npm run record-history -- --as recurrence-at-route recurrence-psp-active recurrence-psp-cancelled recurrence-cycle-psp-paid recurrence-cycle-psp-declined
//   npm run record-history -- --as cycle-cancellation-confirmed recurrence-cycle-cancelled
//   npm run record-history -- recurrence-continue-as-new recurrence-cycle-retried-across-continue-as-new due-date-charge-psp-continue-as-new
//
// It starts the engine (`src/main.ts all` with its embedded Temporal dev server, on a fresh PostgreSQL
// database dropped at the end: bench/engine.ts), plays each scenario over HTTP like an integrator and an
// operator would, and writes the scenario's workflow history to test/replay/histories/<name>.json
// (protobuf JSON: Temporal's field names, enums by name, 64-bit integers and bytes as strings). A workflow
// that continued as new is recorded run by run, <name>-run-<n>-encrypted.json from its first run on.
// The scenarios of TIME_SKIPPING last weeks: they run on another engine, against Temporal's time-skipping
// test server (scripts/time-skipping-temporal.ts), and move its clock from one day of theirs to the next.
// The `*-forged-*` scenarios also play someone who reached Temporal without the payload keys: a client
// without the codec starts a run, or updates or signals a real one, with a payload in clear.
// The `*-psp-*` scenarios run on a bcb-api-pix route named `psp` against the conformance fake PSP
// (test/helpers/fake-psp), started beside the engine, whose webhooks reach the engine's listener.
// Payloads are encrypted as in production, under the committed TEST-ONLY key set
// (test/replay/test-payload-keys.json), and the files are named <scenario>-encrypted.json: the histories
// recorded before encryption keep their names and stay as they are.
// historyToJSON of @temporalio/common is not used: with the two protobufjs copies this install
// holds it fails ("type must be a Type").
// A committed history is never recorded again nor edited: after a versioned workflow change (patched()),
// record the changed scenarios beside the old ones under a label naming the change (--as <patch id>);
// the script refuses to overwrite an existing file. The old histories must keep replaying.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../test/helpers/fake-psp/index.js';
import { idEnvioOf, txidOf } from '../src/pix-routes/bcb-api-pix/ids.js';
import { Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startEngine } from '../bench/engine.js';
import { encryptingDataConverter } from '../src/temporal/codec/data-converter.js';
import { TEST_PAYLOAD_KEYS_FILE, testPayloadKeys } from '../test/helpers/payload-keys.js';
import { chargeWorkflowId, refreshUpdate } from '../src/charges/contract.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../contracts/calendar.js';
import { medWorkflowId } from '../src/meds/contract.js';
import { medReturnsWorkflowId } from '../src/meds/returns.contract.js';
import { PAYLOAD_NOT_ENCRYPTED } from '../contracts/payload-encryption.contract.js';
import { refundWorkflowId } from '../src/refunds/contract.js';
import { RECONCILIATION_WORKFLOW, reconciliationWorkflowId } from '../src/reconciliation/contract.js';
import { suspenseRefundWorkflowId } from '../src/reconciliation/suspense-refund.contract.js';
import { connect } from '../src/db/database.js';
import { completeRefund } from '../src/pix-routes/simulator-refunds.js';
import { TRANSFER_WORKFLOW, transferWorkflowId } from '../src/transfers/contract.js';
import { webhookDeliveryWorkflowId } from '../contracts/webhook-delivery.contract.js';
import { COMPLETION_GRACE_DAYS, cycleDueDate, CYCLES_PER_RUN, recurrenceWorkflowId } from '../src/recurrences/contract.js';
import { cycleChargeKey } from '../src/recurrences/ids.js';
import { parseDueDateTerms } from '../src/charges/due-date/body.js';
import { amountDueOn, type DueDateCharge } from '../src/domain/amount-due.js';
import { startTimeSkippingTemporal, type TemporalClock, type TimeSkippingTemporal } from './time-skipping-temporal.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const HISTORIES_DIR = join(ROOT, 'test', 'replay', 'histories');
/** Short enough for the expiry scenario to finish quickly, long enough to pay in the others. */
const CHARGE_TTL_SECONDS = 4;

/** What a scenario can use: HTTP calls as an integrator (with a fresh merchant key) and as an operator. */
interface ScenarioContext {
  merchant: { accountId: string; key: string };
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
  waitForStatus(transactionId: string, status: string): Promise<any>;
  /** The fake PSP behind the `psp` route, and its webhook naming these Pix sent to the engine's listener. */
  psp: FakePsp;
  pspWebhook(endToEndIds: string[]): Promise<void>;
  /** A Temporal client without the codec, on the engine's Temporal: someone without the payload keys. */
  forger: Client;
  /** A Temporal client of the engine's server, with its payload codec. */
  temporal: Client;
  /** The engine's database, where a scenario plays the simulated network's side. */
  databaseUrl: string;
  /** Temporal's clock, for the scenarios of TIME_SKIPPING (null on the dev server, whose clock is real). */
  clock: TemporalClock | null;
}

/** A scenario plays one run and returns the id of the workflow whose history is recorded. */
type Scenario = (ctx: ScenarioContext) => Promise<string>;

const chargeBody = {
  amount: 25.5,
  payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
  description: 'Replay',
};

async function createCharge(ctx: ScenarioContext): Promise<{ id: string; workflowId: string }> {
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const created = await ctx.api('POST', '/transactions', chargeBody, { 'Idempotency-Key': key });
  if (created.status !== 201) throw new Error(`charge creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { id: created.body.data.id, workflowId: chargeWorkflowId(ctx.merchant.accountId, key) };
}

/** A due-date charge due tomorrow (São Paulo), or on `dueDate`, with a fine, interest and a discount, its payer a company. */
async function createDueDateCharge(
  ctx: ScenarioContext,
  dueDate = addDays(saoPauloDate(new Date()), 1),
): Promise<{ id: string; workflowId: string; dueDate: string; amountDueCents: number; terms: DueDateCharge }> {
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const body = {
    ...chargeBody,
    payer: { name: 'Mercearia Replay Ltda', document: generateCnpj() },
    dueDate,
    fine: { mode: 'percent', value: 2 },
    interest: { mode: 'percent_per_month', value: 1 },
    discounts: [{ until: dueDate, mode: 'fixed', value: 1 }],
  };
  const created = await ctx.api('POST', '/transactions', body, { 'Idempotency-Key': key });
  if (created.status !== 201) throw new Error(`charge creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const { id, amountDue } = created.body.data as { id: string; amountDue: number };
  const amountCents = Math.round(body.amount * 100);
  return {
    id,
    workflowId: chargeWorkflowId(ctx.merchant.accountId, key),
    dueDate,
    amountDueCents: Math.round(amountDue * 100),
    terms: { ...parseDueDateTerms(body, amountCents)!, amountCents },
  };
}

async function paidCharge(ctx: ScenarioContext): Promise<string> {
  const charge = await createCharge(ctx);
  await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`);
  await ctx.waitForStatus(charge.id, 'approved');
  return charge.id;
}

/** Funds the merchant with a paid charge, then requests a transfer and lets the operator settle it. */
async function settledTransfer(ctx: ScenarioContext, outcome: 'approved' | 'failed'): Promise<string> {
  await paidCharge(ctx);
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const created = await ctx.api(
    'POST',
    '/transfers',
    { amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf' },
    { 'Idempotency-Key': key },
  );
  if (created.status !== 201) throw new Error(`transfer creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  await ctx.admin('POST', `/simulator/transfers/${created.body.data.id}/complete`, { outcome });
  await ctx.waitForStatus(created.body.data.id, outcome);
  return transferWorkflowId(ctx.merchant.accountId, key);
}

/** Pays a charge of the simulated network's by its BR Code: the network pays it at the hand-over, so the transfer settles in its accept step. */
async function transferPayingCharge(ctx: ScenarioContext): Promise<string> {
  await paidCharge(ctx);
  const charge = await ctx.api(
    'POST',
    '/transactions',
    { ...chargeBody, amount: 10 },
    { 'Idempotency-Key': `replay-${randomBytes(6).toString('hex')}` },
  );
  if (charge.status !== 201) throw new Error(`charge creation answered ${charge.status}: ${JSON.stringify(charge.body)}`);
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const created = await ctx.api(
    'POST',
    '/transfers',
    { amount: 10, destination: { type: 'pix_copy_paste', value: charge.body.data.pix.copyPaste } },
    { 'Idempotency-Key': key },
  );
  if (created.status !== 201) throw new Error(`transfer creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  await ctx.waitForStatus(created.body.data.id, 'approved');
  await ctx.waitForStatus(charge.body.data.id, 'approved');
  return transferWorkflowId(ctx.merchant.accountId, key);
}

/** An operator refunds part of a paid charge; the simulated network settles the devolução with `outcome`. */
async function settledRefund(ctx: ScenarioContext, outcome: 'approved' | 'failed', whole = false): Promise<string> {
  const transactionId = await paidCharge(ctx);
  const paid = whole ? (await ctx.api('GET', `/transactions/${transactionId}`)).body.data.paidAmount : 10;
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const created = await ctx.admin(
    'POST',
    `/transactions/${transactionId}/refunds`,
    { amount: paid, reason: 'Replay' },
    { 'Idempotency-Key': key },
  );
  if (created.status !== 201) throw new Error(`refund creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const completed = await ctx.admin('POST', `/simulator/refunds/${created.body.data.id}/complete`, { outcome });
  if (completed.status !== 200) throw new Error(`refund completion answered ${completed.status}: ${JSON.stringify(completed.body)}`);
  return refundWorkflowId(ctx.merchant.accountId, key);
}

/** A run over the last minutes of the simulator route: a paid charge (matched) and a Pix no charge asked for (in suspense). */
async function reconciliationRun(ctx: ScenarioContext): Promise<string> {
  await paidCharge(ctx);
  const pix = await ctx.admin('POST', '/simulator/pix', {
    accountId: ctx.merchant.accountId,
    amount: 12.34,
    payer: { name: 'Maria da Silva', document: '52998224725' },
  });
  if (pix.status !== 201) throw new Error(`simulated Pix answered ${pix.status}: ${JSON.stringify(pix.body)}`);
  const now = Date.now();
  const run = await ctx.admin('POST', '/reconciliations', {
    route: 'simulator',
    from: new Date(now - 60_000).toISOString(),
    to: new Date(now + 60_000).toISOString(),
  });
  if (run.status !== 202) throw new Error(`reconciliation answered ${run.status}: ${JSON.stringify(run.body)}`);
  return reconciliationWorkflowId(run.body.data.id);
}

/** A run started as the route's schedule starts one: without a window, it reconciles the day before in São Paulo. */
async function scheduledReconciliation(ctx: ScenarioContext): Promise<string> {
  const workflowId = `reconcile:simulator-replay-${randomBytes(4).toString('hex')}`;
  await ctx.temporal.workflow.start(RECONCILIATION_WORKFLOW, { workflowId, taskQueue: 'pix', args: [{ route: 'simulator' }] });
  return workflowId;
}

/** A Pix no charge asked for, held in suspense by a run, returned to its payer: the network approves the devolução. */
async function suspenseRefund(ctx: ScenarioContext): Promise<string> {
  const runWorkflow = await reconciliationRun(ctx);
  await ctx.temporal.workflow.getHandle(runWorkflow).result();
  const run = await ctx.admin('GET', `/reconciliations/${runWorkflow.replace('reconciliation:', '')}`);
  const item = run.body.data.items.find((i: { kind: string; status: string }) => i.kind === 'unmatched_received' && i.status === 'open');
  const resolved = await ctx.admin('POST', `/reconciliations/items/${item.id}/resolve`, { action: 'refund' });
  if (resolved.status !== 200) throw new Error(`resolution answered ${resolved.status}: ${JSON.stringify(resolved.body)}`);
  const sql = connect(ctx.databaseUrl, { max: 1 });
  try {
    await until(
      async () => ((await sql`select 1 from simulator_refunds where refund_id = ${item.id}`).length ? true : undefined),
      'the devolução',
    );
    await completeRefund(sql, item.id, 'approved');
  } finally {
    await sql.end({ timeout: 5 });
  }
  return suspenseRefundWorkflowId(item.id);
}

/** The payer's institution disputes part of a paid charge; the operator decides. */
async function decidedMed(ctx: ScenarioContext, outcome: 'accepted' | 'rejected'): Promise<string> {
  const transactionId = await paidCharge(ctx);
  const opened = await ctx.admin('POST', '/simulator/meds', { transactionId, amount: 10, reason: 'fraud' });
  if (opened.status !== 201) throw new Error(`MED opening answered ${opened.status}: ${JSON.stringify(opened.body)}`);
  const decided = await ctx.admin('POST', `/meds/${opened.body.data.id}/decision`, { outcome });
  if (decided.status !== 200) throw new Error(`MED decision answered ${decided.status}: ${JSON.stringify(decided.body)}`);
  return medWorkflowId(opened.body.data.id);
}

/** A registered receiver that fails its first call: the delivery of the approval takes two attempts. */
async function webhookRetried(ctx: ScenarioContext): Promise<string> {
  let calls = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    res.statusCode = ++calls === 1 ? 500 : 204;
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = await ctx.admin('POST', `/accounts/${ctx.merchant.accountId}/webhook-endpoints`, { url });
    if (endpoint.status !== 201) throw new Error(`endpoint registration answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);
    const transactionId = await paidCharge(ctx);
    const delivery = await until(async () => {
      const found = await ctx.admin('GET', `/webhook-deliveries?eventId=evt_${transactionId}_approved`);
      const view = found.body?.data?.[0];
      return view?.status === 'succeeded' ? view : undefined;
    }, 'the approval to be delivered');
    if (delivery.attemptCount !== 2) throw new Error(`expected 2 attempts, saw ${delivery.attemptCount}`);
    return webhookDeliveryWorkflowId(delivery.id);
  } finally {
    receiver.close();
  }
}

/** Moves the merchant to the PSP route and has a charge paid there, announced by the PSP's webhook. */
async function pspPaidCharge(ctx: ScenarioContext): Promise<{ id: string; workflowId: string; endToEndId: string }> {
  const moved = await ctx.admin('PATCH', `/accounts/${ctx.merchant.accountId}`, { route: 'psp' });
  if (moved.status !== 200) throw new Error(`route change answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  const charge = await createCharge(ctx);
  const { endToEndId } = ctx.psp.pay(txidOf(charge.id));
  await ctx.pspWebhook([endToEndId]);
  await ctx.waitForStatus(charge.id, 'approved');
  return { ...charge, endToEndId };
}

/** A charge paid on the PSP route, then a MED devolução the PSP made on it, announced by a webhook naming the Pix. */
async function pspMedReturn(ctx: ScenarioContext): Promise<string> {
  const charge = await pspPaidCharge(ctx);
  ctx.psp.addDevolucao(charge.endToEndId, { id: 'D1replay', amountCents: 1000, natureza: 'MED_OPERACIONAL' });
  await ctx.pspWebhook([charge.endToEndId]);
  await until(
    async () => ((await ctx.api('GET', `/transactions/${charge.id}`)).body?.data?.refundedAmount === 10 ? true : undefined),
    'the devolução to be recorded',
  );
  return medReturnsWorkflowId('psp', charge.endToEndId);
}

/** A transfer on the PSP route: polled once while pending (5 s), then the envio ends REALIZADO and its webhook arrives. */
async function pspApprovedTransfer(ctx: ScenarioContext): Promise<string> {
  await pspPaidCharge(ctx);
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const created = await ctx.api(
    'POST',
    '/transfers',
    { amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf' },
    { 'Idempotency-Key': key },
  );
  if (created.status !== 201) throw new Error(`transfer creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const idEnvio = idEnvioOf(created.body.data.id);
  await until(
    async () => (ctx.psp.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/id-envio/${idEnvio}`)) ? true : undefined),
    'the first poll of the envio',
  );
  await ctx.pspWebhook([ctx.psp.completeEnvio(idEnvio, 'REALIZADO').endToEndId]);
  await ctx.waitForStatus(created.body.data.id, 'approved');
  return transferWorkflowId(ctx.merchant.accountId, key);
}

/** The refusal a forged start or update meets (workflows/payload-encryption.interceptors.ts). */
const refusedAsUnencrypted = (err: unknown): boolean =>
  (err instanceof WorkflowFailedError || err instanceof WorkflowUpdateFailedError) &&
  err.cause instanceof ApplicationFailure &&
  err.cause.type === PAYLOAD_NOT_ENCRYPTED;

/** A transfer started with a plain JSON draft, as `temporal workflow start --input` would: the run fails at once. */
async function forgedTransferStart(ctx: ScenarioContext): Promise<string> {
  const workflowId = transferWorkflowId(ctx.merchant.accountId, `forged-${randomBytes(6).toString('hex')}`);
  const draft = {
    transactionId: `out_${randomBytes(12).toString('hex')}`,
    accountId: ctx.merchant.accountId,
    apiKeyId: 'key_forged',
    externalId: 'forged',
    fingerprint: '0'.repeat(64),
    route: 'simulator',
    amountCents: 1500,
    feeCents: 0,
    netAmountCents: 1500,
    description: null,
    method: 'pix',
    debitedAmountCents: 1500,
    recipientAmountCents: 1500,
    destination: { pixKey: '52998224725', pixKeyType: 'cpf' },
    payer: { name: 'Loja Replay', document: '11222333000181', email: 'forged@example.com' },
    counterparty: {},
  };
  const handle = await ctx.forger.workflow.start(TRANSFER_WORKFLOW, {
    taskQueue: 'pix',
    workflowId,
    args: [{ requestId: 'req_forged', draft }],
  });
  const outcome = await handle.result().catch((err: unknown) => err);
  if (!refusedAsUnencrypted(outcome)) throw new Error(`the forged transfer was not refused: ${String(outcome)}`);
  return workflowId;
}

/** A MED decision sent in clear is refused; the operator's decision then settles the MED. */
async function forgedMedDecision(ctx: ScenarioContext): Promise<string> {
  const transactionId = await paidCharge(ctx);
  const opened = await ctx.admin('POST', '/simulator/meds', { transactionId, amount: 10, reason: 'fraud' });
  if (opened.status !== 201) throw new Error(`MED opening answered ${opened.status}: ${JSON.stringify(opened.body)}`);
  const workflowId = medWorkflowId(opened.body.data.id);
  const forged = await ctx.forger.workflow
    .getHandle(workflowId)
    .executeUpdate('decide', { args: ['accepted'] })
    .catch((err: unknown) => err);
  if (!refusedAsUnencrypted(forged)) throw new Error(`the forged MED decision was not refused: ${String(forged)}`);
  const decided = await ctx.admin('POST', `/meds/${opened.body.data.id}/decision`, { outcome: 'rejected' });
  if (decided.status !== 200) throw new Error(`MED decision answered ${decided.status}: ${JSON.stringify(decided.body)}`);
  return workflowId;
}

/** A payment notice sent in clear, with an argument, to a pending charge is ignored; the real payment settles it. */
/** Waits until the workflow task that took the run's first signal is done. */
function firstSignalHandled(handle: WorkflowHandle): Promise<true> {
  return until(async () => {
    const events = (await handle.fetchHistory()).events!;
    const signalled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
    return signalled !== -1 && events.slice(signalled).some((e) => e.workflowTaskCompletedEventAttributes) ? true : undefined;
  }, 'the first signal to be handled');
}

async function forgedChargeSignal(ctx: ScenarioContext): Promise<string> {
  const charge = await createCharge(ctx);
  const handle = ctx.forger.workflow.getHandle(charge.workflowId);
  await handle.signal('paymentNotified', { paid: true });
  // The forged signal's workflow task is done before the payment comes.
  await firstSignalHandled(handle);
  await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`);
  await ctx.waitForStatus(charge.id, 'approved');
  return charge.workflowId;
}

/** A monthly recurrence of R$ 99,90 whose first cycle is due in 5 days (inside the lead window once authorized). */
async function createRecurrence(ctx: ScenarioContext, retryPolicy = 'none'): Promise<{ id: string; workflowId: string }> {
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const body = {
    payer: { name: 'Maria da Silva', document: '52998224725' },
    contract: 'CTR-REPLAY-1',
    description: 'Assinatura replay',
    frequency: 'monthly',
    firstDueDate: addDays(saoPauloDate(new Date()), 5),
    amount: 99.9,
    retryPolicy,
  };
  const created = await ctx.api('POST', '/recurrences', body, { 'Idempotency-Key': key });
  if (created.status !== 201) throw new Error(`recurrence creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { id: created.body.data.id, workflowId: recurrenceWorkflowId(ctx.merchant.accountId, key) };
}

/** The recurrence authorized by the simulated payer, and its first cycle charge once the engine created it. */
async function authorizedRecurrence(ctx: ScenarioContext, retryPolicy = 'none') {
  const recurrence = await createRecurrence(ctx, retryPolicy);
  const authorized = await ctx.admin('POST', `/simulator/recurrences/${recurrence.id}/authorize`);
  if (authorized.status !== 200) throw new Error(`authorization answered ${authorized.status}: ${JSON.stringify(authorized.body)}`);
  return { ...recurrence, cycle: await firstCycleOf(ctx, recurrence.id) };
}

/** A recurrence on the `psp` route authorized in the payer's app, announced by the PSP's webhookrec; its first cycle once at the PSP. */
async function pspAuthorizedRecurrence(ctx: ScenarioContext, retryPolicy = 'none') {
  const moved = await ctx.admin('PATCH', `/accounts/${ctx.merchant.accountId}`, { route: 'psp' });
  if (moved.status !== 200) throw new Error(`moving the account to psp answered ${moved.status}`);
  const recurrence = await createRecurrence(ctx, retryPolicy);
  const { idRec } = ctx.psp.recurrences().at(-1)!;
  ctx.psp.answerRecurrence(idRec, 'APROVADA');
  await until(async () => (ctx.psp.recurrenceWebhookUrls.rec ? true : undefined), 'PUT /webhookrec');
  const status = await ctx.psp.sendRecurrenceWebhook({ kind: 'rec', ids: [idRec] });
  if (status !== 200) throw new Error(`webhookrec answered ${status}`);
  const cycle = await firstCycleOf(ctx, recurrence.id);
  await until(async () => (ctx.psp.cobr(txidOf(cycle.id)) ? true : undefined), `the cobr of ${cycle.id}`);
  return { ...recurrence, cycle };
}

/** The PSP's webhookcobr naming the cycle charge's cobr, after the payer's bank's debit attempt. */
async function pspDebit(ctx: ScenarioContext, chargeId: string, outcome: 'PAGA' | 'REJEITADA'): Promise<void> {
  ctx.psp.debitCobr(txidOf(chargeId), outcome);
  const status = await ctx.psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txidOf(chargeId)] });
  if (status !== 200) throw new Error(`webhookcobr answered ${status}`);
}

async function firstCycleOf(ctx: ScenarioContext, recurrenceId: string): Promise<{ id: string; workflowId: string }> {
  for (let tries = 0; tries < 200; tries += 1) {
    const listed = await ctx.api('GET', `/transactions?recurrenceId=${recurrenceId}`);
    const cycle = listed.body.data?.[0];
    if (cycle?.pix)
      return { id: cycle.id, workflowId: chargeWorkflowId(ctx.merchant.accountId, cycleChargeKey(recurrenceId, cycle.dueDate)) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no cycle charge for ${recurrenceId}`);
}

/** How a scenario's recurrence is authorized: by the simulated payer, or in the app of a PSP route's payer. */
type Authorize = typeof authorizedRecurrence;

/** The recurrence workflow authorized, recorded while it waits for its next cycle. */
const activeRecurrence =
  (authorize: Authorize): Scenario =>
  async (ctx) => {
    const { workflowId } = await authorize(ctx);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return workflowId;
  };

/** The recurrence workflow authorized, then cancelled by the merchant: its cycle not yet due is cancelled. */
const cancelledRecurrence =
  (authorize: Authorize): Scenario =>
  async (ctx) => {
    const recurrence = await authorize(ctx);
    await ctx.api('DELETE', `/recurrences/${recurrence.id}`);
    await ctx.waitForStatus(recurrence.cycle.id, 'cancelled');
    await ctx.temporal.workflow.getHandle(recurrence.workflowId).result();
    return recurrence.workflowId;
  };

function clockOf(ctx: ScenarioContext): TemporalClock {
  if (!ctx.clock) throw new Error('this scenario moves Temporal’s clock: it runs on the time-skipping server (TIME_SKIPPING)');
  return ctx.clock;
}

/** 0 on Sunday to 6 on Saturday. */
const weekday = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();
/** 09:00 in São Paulo on `day`, when the scenarios' payers and banks act. */
const morningOf = (day: string): number => startOfSaoPauloDay(day).getTime() + 9 * 3_600_000;
const MONDAY = 1;
const SATURDAY = 6;

/** How many times a cycle charge's workflow asked the simulator for a retry (a local activity each). */
async function retriesAsked(handle: WorkflowHandle): Promise<number> {
  const { events } = await handle.fetchHistory();
  return events!.filter((e) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') return false;
    return JSON.parse(Buffer.from(marker.details!['data']!.payloads![0]!.data!).toString('utf8')).activity_type === 'retryCycleAtRoute';
  }).length;
}

async function cycleDueOn(ctx: ScenarioContext, recurrenceId: string, dueDate: string): Promise<{ id: string; workflowId: string }> {
  const cycle = await until(async () => {
    const listed = await ctx.api('GET', `/transactions?recurrenceId=${recurrenceId}&limit=100`);
    return (listed.body.data as Array<{ id: string; dueDate: string }>).find((c) => c.dueDate === dueDate);
  }, `the cycle due on ${dueDate}`);
  return { id: cycle.id, workflowId: chargeWorkflowId(ctx.merchant.accountId, cycleChargeKey(recurrenceId, dueDate)) };
}

/** The cycle declined on its due date and on its first two retries, and paid on its third. */
const RETRIED_CYCLE = 9;

/**
 * A weekly recurrence due on Saturdays with `three_in_seven_days`, over CYCLES_PER_RUN + 1 cycles, each paid
 * on its due date by the payer's bank but cycle RETRIED_CYCLE: declined on its Saturday, then on its retries
 * on the Sunday and the Tuesday after (calendar days, the weekend included), paid on its third, the Friday.
 * Each cycle is created RECURRENCE_LEAD_DAYS (10 on this engine) before its due date, so the first run's
 * CYCLES_PER_RUN cycles are all created by that Wednesday, when the recurrence continues as new: the retried
 * cycle is retried over it. The second run creates the last cycle and completes COMPLETION_GRACE_DAYS after it.
 */
async function weeklyRecurrenceAcrossContinueAsNew(ctx: ScenarioContext): Promise<{ workflowId: string; retriedCycle: string }> {
  const clock = clockOf(ctx);
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const inThreeDays = addDays(saoPauloDate(new Date(await clock.nowMs())), 3);
  const firstDueDate = addDays(inThreeDays, (SATURDAY - weekday(inThreeDays) + 7) % 7);
  const endDate = cycleDueDate(firstDueDate, 'weekly', CYCLES_PER_RUN);
  const created = await ctx.api(
    'POST',
    '/recurrences',
    {
      payer: { name: 'Maria da Silva', document: '52998224725' },
      contract: 'CTR-REPLAY-WEEKLY',
      description: 'Aulas semanais replay',
      frequency: 'weekly',
      firstDueDate,
      endDate,
      amount: 49.9,
      retryPolicy: 'three_in_seven_days',
    },
    { 'Idempotency-Key': key },
  );
  if (created.status !== 201) throw new Error(`recurrence creation answered ${created.status}: ${JSON.stringify(created.body)}`);
  const recurrenceId = created.body.data.id as string;
  const recurrence = ctx.temporal.workflow.getHandle(recurrenceWorkflowId(ctx.merchant.accountId, key));
  const authorized = await ctx.admin('POST', `/simulator/recurrences/${recurrenceId}/authorize`);
  if (authorized.status !== 200) throw new Error(`authorization answered ${authorized.status}: ${JSON.stringify(authorized.body)}`);
  const firstRun = (await recurrence.describe()).runId;
  let retriedCycle: string | null = null;
  for (let index = 0; index <= CYCLES_PER_RUN; index += 1) {
    const dueDate = cycleDueDate(firstDueDate, 'weekly', index);
    await clock.advanceTo(morningOf(dueDate));
    const cycle = await cycleDueOn(ctx, recurrenceId, dueDate);
    if (index === RETRIED_CYCLE) {
      const handle = ctx.temporal.workflow.getHandle(cycle.workflowId);
      for (const [declines, retryOn] of [
        [1, 1],
        [2, 3],
        [3, 6],
      ] as const) {
        const declined = await ctx.admin('POST', `/simulator/charges/${cycle.id}/decline`);
        if (declined.status !== 200) throw new Error(`decline answered ${declined.status}: ${JSON.stringify(declined.body)}`);
        // The retry is asked before the clock moves: the workflow judges the day it was declined on.
        await until(async () => ((await retriesAsked(handle)) === declines ? true : undefined), `retry ${declines} of ${cycle.id}`);
        if (declines === 3 && (await recurrence.describe()).runId !== firstRun)
          throw new Error('the recurrence continued as new before the cycle’s last decline');
        await clock.advanceTo(morningOf(addDays(dueDate, retryOn)));
      }
      if ((await recurrence.describe()).runId === firstRun) throw new Error('the recurrence did not continue as new before the last retry');
      retriedCycle = cycle.workflowId;
    }
    const paid = await ctx.admin('POST', `/simulator/charges/${cycle.id}/pay`);
    if (paid.status !== 200) throw new Error(`payment answered ${paid.status}: ${JSON.stringify(paid.body)}`);
    await ctx.waitForStatus(cycle.id, 'approved');
  }
  await clock.advanceTo(morningOf(addDays(endDate, COMPLETION_GRACE_DAYS + 1)));
  await until(
    async () => ((await ctx.api('GET', `/recurrences/${recurrenceId}`)).body?.data?.status === 'completed' ? true : undefined),
    `${recurrenceId} to be completed`,
  );
  return { workflowId: recurrence.workflowId, retriedCycle: retriedCycle! };
}

/**
 * A due-date charge on the PSP route due on a Saturday, paid on the Monday after for what is due that day by
 * calendar days (the fine and two days' interest: no grace until the next business day), announced by the
 * PSP's webhook. Created on a Monday morning (the clock moved there first) and polled hourly, it continues as
 * new after DUE_DATE_POLLS_PER_RUN polls, past midnight into the next Monday: its second run sees the payment.
 */
async function dueDateChargeAcrossContinueAsNew(ctx: ScenarioContext): Promise<string> {
  const clock = clockOf(ctx);
  const moved = await ctx.admin('PATCH', `/accounts/${ctx.merchant.accountId}`, { route: 'psp' });
  if (moved.status !== 200) throw new Error(`route change answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  const tomorrow = addDays(saoPauloDate(new Date(await clock.nowMs())), 1);
  const createdOn = addDays(tomorrow, (MONDAY - weekday(tomorrow) + 7) % 7);
  await clock.advanceTo(morningOf(createdOn));
  const charge = await createDueDateCharge(ctx, addDays(createdOn, SATURDAY - MONDAY));
  const handle = ctx.temporal.workflow.getHandle(charge.workflowId);
  const firstRun = (await handle.describe()).runId;
  const paidOn = addDays(createdOn, 7);
  await clock.advanceTo(morningOf(paidOn));
  if ((await handle.describe()).runId === firstRun) throw new Error('the charge did not continue as new before its payment');
  const amountCents = amountDueOn(charge.terms, paidOn);
  if (amountCents <= amountDueOn(charge.terms, charge.dueDate)) throw new Error(`nothing added for paying on ${paidOn}`);
  const { endToEndId } = ctx.psp.payCobv(txidOf(charge.id), { amountCents, at: new Date(await clock.nowMs()) });
  await ctx.pspWebhook([endToEndId]);
  await ctx.waitForStatus(charge.id, 'approved');
  const paidAmount = (await ctx.api('GET', `/transactions/${charge.id}`)).body.data.paidAmount;
  if (Math.round(paidAmount * 100) !== amountCents) throw new Error(`paid ${paidAmount}, ${amountCents} centavos were due`);
  return charge.workflowId;
}

/** Scenarios that last weeks: recorded on the time-skipping server. */
const TIME_SKIPPING = new Set([
  'recurrence-continue-as-new',
  'recurrence-cycle-retried-across-continue-as-new',
  'due-date-charge-psp-continue-as-new',
]);

/** Scenarios whose run is still going when recorded: a recurrence between cycles, a cycle waiting for its retry. */
const RECORDED_RUNNING = new Set([
  'recurrence-active',
  'recurrence-cycle-declined',
  'recurrence-psp-active',
  'recurrence-cycle-psp-declined',
]);

const SCENARIOS: Record<string, Scenario> = {
  'charge-paid': async (ctx) => {
    const charge = await createCharge(ctx);
    await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`, { payer: { bankName: 'Banco Replay', state: 'RS' } });
    await ctx.waitForStatus(charge.id, 'approved');
    return charge.workflowId;
  },
  // A due-date charge (cobv) with its rules, paid five days after its due date for the amount due that day.
  'due-date-charge-paid-late': async (ctx) => {
    const charge = await createDueDateCharge(ctx);
    const paid = await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`, { paidOn: addDays(charge.dueDate, 5) });
    if (paid.status !== 200) throw new Error(`payment answered ${paid.status}: ${JSON.stringify(paid.body)}`);
    await ctx.waitForStatus(charge.id, 'approved');
    return charge.workflowId;
  },
  'charge-expired': async (ctx) => {
    const charge = await createCharge(ctx);
    await ctx.waitForStatus(charge.id, 'cancelled');
    return charge.workflowId;
  },
  'charge-refresh': async (ctx) => {
    const charge = await createCharge(ctx);
    const pending = await ctx.api('GET', `/transactions/${charge.id}?refresh=true`);
    if (pending.body.data.status !== 'pending') throw new Error(`refresh of an unpaid charge answered ${pending.body.data.status}`);
    await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`);
    await ctx.api('GET', `/transactions/${charge.id}?refresh=true`);
    await ctx.waitForStatus(charge.id, 'approved');
    return charge.workflowId;
  },
  // Refreshes of one pending charge reaching its workflow at once, as from several API processes: the
  // later ones join the route call of the first (coalesced-refresh).
  'charge-refresh-concurrent': async (ctx) => {
    const charge = await createCharge(ctx);
    const handle = ctx.temporal.workflow.getHandle(charge.workflowId);
    const answers = await Promise.all([1, 2, 3].map(() => handle.executeUpdate(refreshUpdate)));
    if (answers.some((t) => t.status !== 'pending'))
      throw new Error('concurrent refreshes of an unpaid charge answered other than pending');
    await ctx.admin('POST', `/simulator/charges/${charge.id}/pay`);
    await ctx.waitForStatus(charge.id, 'approved');
    return charge.workflowId;
  },
  'transfer-approved': (ctx) => settledTransfer(ctx, 'approved'),
  'transfer-failed': (ctx) => settledTransfer(ctx, 'failed'),
  'transfer-pays-charge': transferPayingCharge,
  'refund-approved': (ctx) => settledRefund(ctx, 'approved'),
  'refund-failed': (ctx) => settledRefund(ctx, 'failed'),
  // The refund of all the charge received: the charge becomes refunded.
  'refund-whole-charge': (ctx) => settledRefund(ctx, 'approved', true),
  'reconciliation-run': reconciliationRun,
  'reconciliation-scheduled': scheduledReconciliation,
  'suspense-refund-approved': suspenseRefund,
  'med-accepted': (ctx) => decidedMed(ctx, 'accepted'),
  'med-rejected': (ctx) => decidedMed(ctx, 'rejected'),
  'webhook-retried': webhookRetried,
  'charge-psp-paid': async (ctx) => (await pspPaidCharge(ctx)).workflowId,
  // A due-date charge on the PSP route (cobv): polled once (5 s, due-date-polling), then paid, announced by the PSP's webhook.
  'due-date-charge-psp-paid': async (ctx) => {
    const moved = await ctx.admin('PATCH', `/accounts/${ctx.merchant.accountId}`, { route: 'psp' });
    if (moved.status !== 200) throw new Error(`route change answered ${moved.status}: ${JSON.stringify(moved.body)}`);
    const charge = await createDueDateCharge(ctx);
    const txid = txidOf(charge.id);
    await until(
      async () => (ctx.psp.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/cobv/${txid}`)) ? true : undefined),
      'the first poll of the cobv',
    );
    await ctx.pspWebhook([ctx.psp.payCobv(txid, { amountCents: charge.amountDueCents }).endToEndId]);
    await ctx.waitForStatus(charge.id, 'approved');
    return charge.workflowId;
  },
  'transfer-psp-approved': pspApprovedTransfer,
  'med-returns-psp': pspMedReturn,
  'transfer-forged-start': forgedTransferStart,
  'med-forged-decision': forgedMedDecision,
  'charge-forged-signal': forgedChargeSignal,
  // Pix Automático: the recurrence workflow at each stage, and a cycle charge (recurrence-cycles).
  'recurrence-rejected': async (ctx) => {
    const recurrence = await createRecurrence(ctx);
    await ctx.admin('POST', `/simulator/recurrences/${recurrence.id}/reject`);
    await ctx.temporal.workflow.getHandle(recurrence.workflowId).result();
    return recurrence.workflowId;
  },
  'recurrence-active': activeRecurrence(authorizedRecurrence),
  'recurrence-cancelled': cancelledRecurrence(authorizedRecurrence),
  'recurrence-cycle-paid': async (ctx) => {
    const { cycle } = await authorizedRecurrence(ctx);
    await ctx.admin('POST', `/simulator/charges/${cycle.id}/pay`);
    await ctx.waitForStatus(cycle.id, 'approved');
    return cycle.workflowId;
  },
  'recurrence-cycle-declined': async (ctx) => {
    const { cycle } = await authorizedRecurrence(ctx, 'three_in_seven_days');
    await ctx.admin('POST', `/simulator/charges/${cycle.id}/decline`);
    // Declined again once the engine asked for the retry; the run then waits for the next attempt.
    for (let tries = 0; tries < 100; tries += 1) {
      const again = await ctx.admin('POST', `/simulator/charges/${cycle.id}/decline`);
      if (again.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return cycle.workflowId;
  },
  // A bare cycleCancelled (no arguments, no key) while the recurrence is active, then the merchant's cancellation.
  'recurrence-cycle-cancelled': async (ctx) => {
    const { id, cycle } = await authorizedRecurrence(ctx);
    const handle = ctx.forger.workflow.getHandle(cycle.workflowId);
    await handle.signal('cycleCancelled');
    await firstSignalHandled(handle);
    await ctx.api('DELETE', `/recurrences/${id}`);
    await ctx.waitForStatus(cycle.id, 'cancelled');
    return cycle.workflowId;
  },
  'recurrence-cycle-failed': async (ctx) => {
    const { cycle } = await authorizedRecurrence(ctx);
    await ctx.admin('POST', `/simulator/charges/${cycle.id}/decline`);
    await ctx.waitForStatus(cycle.id, 'failed');
    return cycle.workflowId;
  },
  // Pix Automático on a PSP route (recurrence-at-route): the payer's answers and debits read from the PSP, woken by its webhooks.
  'recurrence-psp-active': activeRecurrence(pspAuthorizedRecurrence),
  'recurrence-psp-cancelled': cancelledRecurrence(pspAuthorizedRecurrence),
  'recurrence-cycle-psp-paid': async (ctx) => {
    const { cycle } = await pspAuthorizedRecurrence(ctx);
    await pspDebit(ctx, cycle.id, 'PAGA');
    await ctx.waitForStatus(cycle.id, 'approved');
    return cycle.workflowId;
  },
  'recurrence-cycle-psp-declined': async (ctx) => {
    const { cycle } = await pspAuthorizedRecurrence(ctx, 'three_in_seven_days');
    await pspDebit(ctx, cycle.id, 'REJEITADA');
    // The run then waits for the retry's outcome.
    await until(async () => (ctx.psp.cobr(txidOf(cycle.id))!.tentativas.length === 2 ? true : undefined), 'the retry asked at the PSP');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return cycle.workflowId;
  },
  // Runs that continue as new (TIME_SKIPPING): the recurrence's two runs, the cycle retried over its continue-as-new,
  // and a due-date charge's two runs, a week of polls in the first.
  'recurrence-continue-as-new': async (ctx) => (await weeklyRecurrenceAcrossContinueAsNew(ctx)).workflowId,
  'recurrence-cycle-retried-across-continue-as-new': async (ctx) => (await weeklyRecurrenceAcrossContinueAsNew(ctx)).retriedCycle,
  'due-date-charge-psp-continue-as-new': dueDateChargeAcrossContinueAsNew,
};

async function call(url: string, method: string, auth: { authorization: string }, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function merchantOf(admin: ScenarioContext['admin']): Promise<ScenarioContext['merchant']> {
  // One account per document and e-mail: a fresh CNPJ for each scenario's merchant.
  const account = await admin('POST', '/accounts', {
    name: 'Loja Replay',
    document: generateCnpj(),
    email: `replay.${Date.now()}@example.com`,
    kycStatus: 'approved',
  });
  if (account.status !== 201) throw new Error(`account creation answered ${account.status}: ${JSON.stringify(account.body)}`);
  const key = await admin('POST', `/accounts/${account.body.data.id}/api-keys`, {
    permissions: ['payments:write', 'transactions:read', 'transfers:write', 'balance:read'],
  });
  if (key.status !== 201) throw new Error(`api key creation answered ${key.status}`);
  return { accountId: account.body.data.id, key: key.body.data.key };
}

async function main() {
  const args = process.argv.slice(2);
  const asAt = args.indexOf('--as');
  const label = asAt === -1 ? null : args[asAt + 1];
  if (asAt !== -1 && !label?.match(/^[a-z0-9-]+$/)) throw new Error('--as takes a label of lowercase letters, digits and dashes');
  const wanted = asAt === -1 ? args : args.filter((_, i) => i !== asAt && i !== asAt + 1);
  const unknown = wanted.filter((name) => !(name in SCENARIOS));
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  const names = wanted.length ? wanted : Object.keys(SCENARIOS);
  const fileOf: FileOf = (name, run) =>
    join(HISTORIES_DIR, `${name}${label === null ? '' : `-${label}`}${run === undefined ? '' : `-run-${run}`}-encrypted.json`);
  const recorded = names.flatMap((name) => [fileOf(name), fileOf(name, 1)]).filter((file) => existsSync(file));
  if (recorded.length)
    throw new Error(`already recorded (committed histories are never recorded again; use --as <label>): ${recorded.join(', ')}`);

  mkdirSync(HISTORIES_DIR, { recursive: true });
  const onDevServer = names.filter((name) => !TIME_SKIPPING.has(name));
  if (onDevServer.length) await record(onDevServer, fileOf, null);
  for (const name of names.filter((name) => TIME_SKIPPING.has(name))) {
    // Each on a server of its own, whose clock starts at the real time the engine's API and PostgreSQL keep.
    const temporal = await startTimeSkippingTemporal();
    try {
      await record([name], fileOf, temporal);
    } finally {
      await temporal.stop();
    }
  }
}

/** Where a scenario's history is written: `run` numbers the runs of a workflow that continued as new. */
type FileOf = (name: string, run?: number) => string;

/** Plays and records `names` on an engine of their own, with its embedded dev server or on `timeSkipping`. */
async function record(names: string[], fileOf: FileOf, timeSkipping: TimeSkippingTemporal | null) {
  const psp = await startFakePsp();
  // A receiver's account: the route takes recurrences.
  const { listenerUrl, env: pspEnv } = await engineOnFakePsp(psp, { receiverAccount: { conta: '1234567', tipoConta: 'CORRENTE' } });
  const engine = await startEngine({
    ...pspEnv,
    CHARGE_TTL_SECONDS: String(CHARGE_TTL_SECONDS),
    // Transfers wait for the operator's answer, so each scenario decides its outcome.
    SIMULATOR_TRANSFER_DELAY_MS: '-1',
    WEBHOOK_ALLOW_INSECURE: 'true',
    WEBHOOK_RETRY_INITIAL_MS: '200',
    PAYLOAD_KEYS_FILE: TEST_PAYLOAD_KEYS_FILE,
    ...(timeSkipping && {
      TEMPORAL_ADDRESS: timeSkipping.address,
      // The test server keeps no schedules.
      RECONCILE_AT: 'off',
      // The most the standard allows: a weekly recurrence's cycles then run out mid-week (weeklyRecurrenceAcrossContinueAsNew).
      RECURRENCE_LEAD_DAYS: '10',
    }),
  });
  const client = new Client({
    connection: await Connection.connect({ address: engine.temporalAddress }),
    dataConverter: encryptingDataConverter(testPayloadKeys()),
  });
  const forger = new Client({ connection: client.connection });
  try {
    const urls = { api: `http://127.0.0.1:${engine.port}/v1`, admin: `http://127.0.0.1:${engine.adminPort}/admin` };
    const admin: ScenarioContext['admin'] = (method, path, body, headers) =>
      call(`${urls.admin}${path}`, method, engine.adminHeaders, body, headers);
    for (const name of names) {
      const merchant = await merchantOf(admin);
      const api: ScenarioContext['api'] = (method, path, body, headers) =>
        call(`${urls.api}${path}`, method, { authorization: `Bearer ${merchant.key}` }, body, headers);
      const ctx: ScenarioContext = {
        merchant,
        api,
        admin,
        waitForStatus: (id, status) =>
          until(
            async () => ((await api('GET', `/transactions/${id}`)).body?.data?.status === status ? true : undefined),
            `${id} to be ${status}`,
          ),
        psp,
        temporal: client,
        forger,
        databaseUrl: engine.databaseUrl,
        pspWebhook: async (endToEndIds) => {
          const status = await psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds });
          if (status !== 200) throw new Error(`PSP webhook answered ${status}`);
        },
        clock: timeSkipping?.clock ?? null,
      };
      const workflowId = await SCENARIOS[name]!(ctx);
      const handle = client.workflow.getHandle(workflowId);
      // A run recorded mid-way (a recurrence waiting for its next cycle) is recorded as it stands.
      if (!RECORDED_RUNNING.has(name)) {
        await handle.result().catch((err: unknown) => {
          if (!refusedAsUnencrypted(err)) throw err;
        });
      }
      const runs = await runsOf(client, workflowId);
      for (const [index, history] of runs.entries()) {
        const file = runs.length === 1 ? fileOf(name) : fileOf(name, index + 1);
        writeFileSync(file, `${JSON.stringify(history, null, 1)}\n`, { flag: 'wx' });
        process.stdout.write(`recorded ${name} (${workflowId}) → ${file}\n`);
      }
    }
  } finally {
    await client.connection.close();
    await engine.stop();
    await psp.close();
  }
}

/** The histories of the workflow's runs, first to latest: each run that continued as new, then the one it started. */
async function runsOf(client: Client, workflowId: string) {
  const runs = [await client.workflow.getHandle(workflowId).fetchHistory()];
  for (;;) {
    const previous = runs[0]!.events![0]!.workflowExecutionStartedEventAttributes!.continuedExecutionRunId;
    if (!previous) return runs;
    runs.unshift(await client.workflow.getHandle(workflowId, previous).fetchHistory());
  }
}

main().catch((err) => {
  process.stderr.write(`record-history failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
