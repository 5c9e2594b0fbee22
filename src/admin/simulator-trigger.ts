// `pixctl trigger <event> --account <accId>` (POST /admin/simulator/trigger): makes one event happen
// for real on an account of the simulator route, by the steps an integrator and the simulated network
// would take, so that the account's webhook endpoints and `pixctl listen` receive it as they would in
// production. Operations are made under an API key created for the trigger and revoked at once (the
// transactions table names the key that created each operation; no usable secret is left behind).
// Events other than the one asked may happen on the way (a charge paid to fund a transfer is approved).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Account, Caller } from '../accounts/account.js';
import { createApiKey, hashApiKey, revokeApiKey } from '../accounts/api-keys.js';
import { PERMISSIONS } from '../accounts/permissions.js';
import { createCharge } from '../charges/create.js';
import { notifyChargePaid } from '../charges/workflow-client.js';
import { openMedThroughWorkflow } from '../meds/workflow-client.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { createRecurrence } from '../recurrences/create.js';
import { firstCycleChargeId, loadRecurrence } from '../recurrences/repository.js';
import { changeRecurrence } from '../recurrences/workflow-client.js';
import { TIMED_OUT } from '../async/within.js';
import { createRefund } from '../refunds/create.js';
import { findRefund } from '../refunds/repository.js';
import { notifyRefundAnswered } from '../refunds/workflow-client.js';
import type { Deps } from '../runtime/deps.js';
import { findTransaction } from '../transactions/repository.js';
import type { TransactionRow, TransactionStatus } from '../transactions/row.js';
import { createTransfer } from '../transfers/create.js';
import { notifyTransferAnswered } from '../transfers/workflow-client.js';
import { payCharge } from '../pix-routes/simulator.js';
import { completeRefund, RefundNotPending } from '../pix-routes/simulator-refunds.js';
import { completeTransfer, TransferNotPending } from '../pix-routes/simulator-transfers.js';
import type { TriggerEvent } from './trigger-events.js';

/** What a trigger made: the operation whose event it is, and the transaction it belongs to. */
export interface Triggered {
  event: TriggerEvent;
  accountId: string;
  transactionId: string;
  /** The refund (`refund.approved`), MED (`med.created`) or recurrence (`recurrence.updated`) the event is about. */
  objectId: string;
}

/** How long each step may take before the trigger gives up (the events may still happen). */
const STEP_TIMEOUT_MS = 30_000;
/** A charge made to be cancelled expires this soon after it is created. */
const CANCELLED_CHARGE_TTL_SECONDS = 2;
/** A valid CPF: the simulated payer's, and the Pix key a transfer made to fail is sent to. */
const TEST_CPF = '52998224725';
const PAYER = { name: 'Pagador de Teste', document: TEST_CPF };

export class TriggerRefused extends Error {}

interface Context {
  deps: Deps;
  caller: Caller;
  requestId: string;
  label: string;
}

async function waitFor<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`trigger: ${what} did not happen within ${STEP_TIMEOUT_MS} ms`);
    await sleep(200);
  }
}

const statusOf = (ctx: Context, id: string, status: TransactionStatus) =>
  waitFor(`${id} ${status}`, async () => {
    const row = await findTransaction(ctx.deps.sql, ctx.caller.account.id, id);
    return row?.status === status ? row : undefined;
  });

let sequence = 0;
const keyOf = (ctx: Context, step: string) => `trigger-${ctx.label}-${Date.now().toString(36)}-${(sequence++).toString(36)}-${step}`;

async function charge(ctx: Context, amount: number, deps = ctx.deps): Promise<TransactionRow> {
  const body = { amount, payer: PAYER, description: `pixctl trigger ${ctx.label}`, metadata: { trigger: ctx.label } };
  const created = await createCharge(deps, ctx.caller, body, keyOf(ctx, 'charge'), ctx.requestId);
  return created.transaction;
}

/** A charge paid by the simulated payer, once the engine approved it. */
async function paidCharge(ctx: Context, amount: number): Promise<TransactionRow> {
  const created = await charge(ctx, amount);
  const opened = await waitFor('the charge opening at the route', async () => {
    const row = await findTransaction(ctx.deps.sql, ctx.caller.account.id, created.id);
    return row?.pixCopyPaste ? row : undefined;
  });
  await payCharge(ctx.deps.sql, opened.id, { payer: { ...PAYER, bankName: 'Banco Simulado S.A.', state: 'SP' } });
  await notifyChargePaid(ctx.deps, opened.id);
  return statusOf(ctx, opened.id, 'approved');
}

/** Retries a network step while the network has not received the operation yet. */
async function atNetwork(what: string, step: () => Promise<unknown>, notYet: (err: unknown) => boolean): Promise<void> {
  await waitFor(what, async () => {
    try {
      await step();
      return true;
    } catch (err) {
      if (notYet(err)) return undefined;
      throw err;
    }
  });
}

const SCENARIOS: Record<TriggerEvent, (ctx: Context) => Promise<Omit<Triggered, 'event' | 'accountId'>>> = {
  async 'transaction.approved'(ctx) {
    const paid = await paidCharge(ctx, 10);
    return { transactionId: paid.id, objectId: paid.id };
  },
  async 'transaction.cancelled'(ctx) {
    const deps = { ...ctx.deps, config: { ...ctx.deps.config, chargeTtlSeconds: CANCELLED_CHARGE_TTL_SECONDS } };
    const created = await charge(ctx, 10, deps);
    await statusOf(ctx, created.id, 'cancelled');
    return { transactionId: created.id, objectId: created.id };
  },
  async 'transaction.failed'(ctx) {
    await paidCharge(ctx, 20);
    const body = { amount: 10, pixKey: TEST_CPF, pixKeyType: 'cpf', description: `pixctl trigger ${ctx.label}` };
    const created = await createTransfer(ctx.deps, ctx.caller, body, keyOf(ctx, 'transfer'), ctx.requestId);
    const id = created.transaction.id;
    await atNetwork(
      'the transfer reaching the network',
      () => completeTransfer(ctx.deps.sql, id, 'failed'),
      (err) => err instanceof TransferNotPending && err.status === 'not_found',
    );
    await notifyTransferAnswered(ctx.deps, id);
    await statusOf(ctx, id, 'failed');
    return { transactionId: id, objectId: id };
  },
  async 'med.created'(ctx) {
    const paid = await paidCharge(ctx, 10);
    const opened = await openMedThroughWorkflow(ctx.deps, { transactionId: paid.id, amountCents: null, reason: 'fraud' }, null);
    if (!opened.result.ok) throw new Error(`trigger: the MED was refused: ${opened.result.message}`);
    return { transactionId: paid.id, objectId: opened.result.med.id };
  },
  async 'refund.approved'(ctx) {
    const paid = await paidCharge(ctx, 10);
    const asked = { amountCents: null, reason: `pixctl trigger ${ctx.label}` };
    const { refund } = await createRefund(ctx.deps, paid, asked, keyOf(ctx, 'refund'), ctx.requestId);
    await atNetwork(
      'the refund reaching the network',
      () => completeRefund(ctx.deps.sql, refund.id, 'approved'),
      (err) => err instanceof RefundNotPending && err.status === 'not_found',
    );
    await notifyRefundAnswered(ctx.deps, refund.id);
    await waitFor(`${refund.id} approved`, async () => {
      return (await findRefund(ctx.deps.sql, refund.id))?.status === 'approved' ? true : undefined;
    });
    return { transactionId: paid.id, objectId: refund.id };
  },
  /** A recurrence due in 5 days, authorized by the simulated payer: `active`, and its first cycle's charge made at once. */
  'recurrence.updated': async (ctx) => {
    const body = {
      payer: PAYER,
      contract: `trigger-${ctx.label}`,
      description: `pixctl trigger ${ctx.label}`,
      frequency: 'monthly',
      firstDueDate: addDays(saoPauloDate(new Date()), 5),
      amount: 10,
    };
    const { recurrence } = await createRecurrence(ctx.deps, ctx.caller, body, keyOf(ctx, 'recurrence'), ctx.requestId);
    const status = await changeRecurrence(ctx.deps, recurrence, { change: 'authorize' });
    if (status === TIMED_OUT) {
      await waitFor(`${recurrence.id} active`, async () => {
        return (await loadRecurrence(ctx.deps.sql, recurrence.id)).status === 'active' ? true : undefined;
      });
    }
    const cycle = await waitFor(`the first cycle charge of ${recurrence.id}`, async () => {
      return (await firstCycleChargeId(ctx.deps.sql, recurrence.id)) ?? undefined;
    });
    return { transactionId: cycle, objectId: recurrence.id };
  },
};

/**
 * Makes `event` happen on `account` (of the simulator route); throws TriggerRefused when it cannot here,
 * and the engine's own refusal when the account's rules refuse a step (KYC pending, limits).
 */
export async function trigger(deps: Deps, account: Account, event: TriggerEvent, requestId: string): Promise<Triggered> {
  const made = await createApiKey(deps.sql, account.id, { permissions: [...PERMISSIONS], allowedIps: [] });
  if (!made) throw new TriggerRefused('Conta não encontrada');
  await revokeApiKey(deps.sql, made.record.id);
  const caller: Caller = { account, keyId: made.record.id, keyHash: hashApiKey(made.key), permissions: [...PERMISSIONS] };
  const ctx: Context = { deps, caller, requestId, label: event.replace('.', '-') };
  return { event, accountId: account.id, ...(await SCENARIOS[event](ctx)) };
}
