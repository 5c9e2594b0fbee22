// The charge workflow's contract: what src/ starts it with, asks it and tells it (besides the `accept`
// update every transaction workflow answers, transaction.contract.ts), what its activities answer, and
// what it answers. One workflow per charge, id `charge:<accountId>:<idempotency key>`.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { DraftBasics, Persisted, Settled, TransactionState, TransactionWorkflowInput } from '../../contracts/transaction.contract.js';
import type { CycleTerms } from '../recurrences/contract.js';

/** A split item after the body checks: amount in centavos or percent, recipient as sent. */
export interface SplitRequestItem {
  recipient: string;
  amountCents?: number;
  percent?: number;
  description?: string;
}

/** One split recipient's share, priced: as the draft carries it and `transactions.split` stores it. */
export interface SplitShare {
  /** The identifier the client sent (e-mail, CPF/CNPJ or account id). */
  recipient: string;
  accountId: string;
  amountCents: number;
  percent: number | null;
  description: string | null;
}

/** A fixed value in centavos, or a percent in hundredths of a percent (150 is 1.5 %): exact integers either way. */
export interface BillingValue<M extends string> {
  mode: M;
  value: number;
}

/**
 * The rules of a due-date charge (the standard's `cobv`) after the body checks, as sent with the
 * defaults applied; the amount due on each day follows from them (src/charges/due-date/amount-due.ts).
 */
export interface DueDateBilling {
  /** Days after the due date the charge can still be paid. */
  validityAfterDue: number;
  fine: BillingValue<'fixed' | 'percent'> | null;
  interest: BillingValue<'fixed_per_day' | 'percent_per_day' | 'percent_per_month' | 'percent_per_year'> | null;
  /** Up to three, `until` strictly increasing and none after the due date, one mode for all. */
  discounts: (BillingValue<'fixed' | 'percent'> & { until: string })[];
  abatement: BillingValue<'fixed' | 'percent'> | null;
}

/** A due-date charge's terms: the day it is due (`YYYY-MM-DD`, America/Sao_Paulo) and its billing rules. */
export interface DueDateTerms {
  dueDate: string;
  billing: DueDateBilling;
}

/** What the client asked for, judged by the account's rules in the accept step (src/charges/terms.ts). */
export interface ChargeAsked {
  amountCents: number;
  coverFee: boolean;
  split: SplitRequestItem[];
  /** A due-date charge's terms; absent for an immediate charge. */
  due?: DueDateTerms;
  /** A recurrence's cycle charge (Pix Automático): debited by the payer's bank on its due date. */
  cycle?: CycleTerms;
}

/**
 * A charge as the client asked for it: the amounts of `asked`, unpriced (fee 0, no split shares), and
 * `asked` itself, which the accept step prices against the account's rules under its lock. Runs
 * without `asked` carry the amounts their API priced.
 */
export interface ChargeDraft extends DraftBasics {
  merchantName: string;
  /** What the payer pays. */
  amountCents: number;
  splitAmountCents: number;
  split: SplitShare[];
  payer: { name: string; document: string; email?: string };
  webhookUrl: string | null;
  /** Absent in runs whose API priced the charge itself. */
  asked?: ChargeAsked;
}

export interface ChargeWorkflowInput extends TransactionWorkflowInput {
  ttlSeconds: number;
  draft: ChargeDraft;
  /** A run continued as new (DUE_DATE_POLLING): the polls its earlier runs made, so the schedule stays hourly. */
  pollsBefore?: number;
}

/** A charge as its workflow knows it: what decides between waiting, opening and settling. */
export interface ChargeTransactionState extends TransactionState {
  /** When the charge expires unpaid (epoch ms). */
  expiresAtMs: number;
  /** The route holds the charge (its BR Code is stored): it can be paid. */
  opened: boolean;
  /** A due-date charge's due date (`YYYY-MM-DD`); absent for an immediate charge, and in runs recorded before it was said. */
  dueDate?: string;
}

/** The accept step's answer: the persisted charge (new, or the key's existing one), or the refusal. */
export type PersistedCharge = Persisted<ChargeTransactionState>;

/** A route's answer about a charge, in a form that travels through Temporal (dates as ISO strings). */
export type RouteChargeState =
  | { status: 'pending' }
  | {
      status: 'paid';
      paidAt: string;
      amountCents: number;
      /** What the payer's institution told the route. */
      payer: { name?: string; document?: string; email?: string; bankName?: string; state?: string };
      endToEndId?: string;
    }
  | { status: 'cancelled'; expired: boolean }
  /** A cycle charge's debit failed for lack of funds (`declined` attempts so far) and no retry was asked yet. */
  | { status: 'declined'; declined: number }
  /** A cycle charge the route ended unpaid with no attempt left (a PSP's cobr REJEITADA): the cycle failed. */
  | { status: 'failed' };

export type PaidAtRoute = Extract<RouteChargeState, { status: 'paid' }>;

/**
 * From this patch on, a charge on a remote route asks the route for its state and, when the route says
 * paid, settles in that same regular activity (confirmChargeAtRoute): a paid charge is approved one
 * activity and one workflow task after the payment notice instead of two of each. Money still moves
 * only on the route's own answer, read in that activity first. Runs started before it, and simulator
 * runs, ask the route and settle in steps of their own.
 */
export const CONFIRM_AND_SETTLE = 'confirm-and-settle';

/**
 * The same on the simulator: a charge's workflow, told of a payment, reads the simulator's answer and
 * settles in one local activity (confirmChargeAtRoute) instead of two, one activation sooner.
 */
export const LOCAL_CONFIRM_AND_SETTLE = 'local-confirm-and-settle';

/** What confirmChargeAtRoute answers: the route's state and, when it said paid, the settlement made on it. */
export interface ConfirmedCharge {
  state: RouteChargeState;
  settled?: Settled<ChargeTransactionState>;
}

/** The settled charge; null when the accept step refused it (nothing was kept). */
export type ChargeWorkflow = (input: ChargeWorkflowInput) => Promise<ChargeTransactionState | null>;
export const CHARGE_WORKFLOW = 'chargeWorkflow';

export const chargeWorkflowId = (accountId: string, key: string): string => `charge:${accountId}:${key}`;

/** Asks the route for the latest state of a pending charge; answers the charge as the workflow knows it then. */
export const refreshUpdate = defineUpdate<ChargeTransactionState, []>('refresh');

/**
 * From this patch on, refreshes that arrive while one is asking the route join it (one route call in
 * flight, its answer shared) instead of each starting a call of its own. Runs started before it keep
 * one call per refresh.
 */
export const COALESCED_REFRESH = 'coalesced-refresh';

/**
 * The refreshes one run takes; later ones are rejected (the API answers the state it knows). Temporal
 * keeps at most 2,000 distinct updates per run (`limit.workflowExecution.maxTotalUpdates`), `accept`
 * included, and a workflow task that would accept one past it fails: the charge's own updates must
 * never get there.
 */
export const REFRESHES_PER_RUN = 1000;
/**
 * From this patch on, a due-date charge on a remote route, which waits for weeks, is polled at most once
 * an hour (dueDatePollDelayMs) and continues as new every DUE_DATE_POLLS_PER_RUN polls, so its history
 * stays small; an immediate charge keeps remotePollDelayMs. (Due-date charges reached remote routes with
 * this patch: no run before it takes the branch.)
 */
export const DUE_DATE_POLLING = 'due-date-polling';

/** A due-date charge's polling of a remote route: first after 5 s, doubling to once an hour. */
export function dueDatePollDelayMs(poll: number): number {
  return Math.min(5000 * 2 ** poll, 3_600_000);
}

/** About a week of hourly polls per run (about 1,900 history events), then the charge continues as new. */
export const DUE_DATE_POLLS_PER_RUN = 168;

/** The route told the engine the charge was paid (the workflow confirms with the route). */
export const paymentNotifiedSignal = defineSignal<[]>('paymentNotified');

/**
 * From this patch on, a recurrence's cycle charge (ChargeAsked.cycle) handles a declined debit (retried on
 * the 1st, 3rd and 6th day after the due date with `three_in_seven_days`, else failed) and its
 * recurrence's cancellation. Only cycle charges reach it: no run recorded before it takes the branch.
 */
export const RECURRENCE_CYCLES = 'recurrence-cycles';

/**
 * A hint that the cycle's recurrence was cancelled before the cycle was due. From CYCLE_CANCELLATION_CONFIRMED
 * on, the workflow acts only once PostgreSQL confirms it (cycleCancelledByRecurrence); then the charge is
 * withdrawn at the route and cancelled (unless paid).
 */
export const cycleCancelledSignal = defineSignal<[]>('cycleCancelled');

/**
 * From this patch on, a cycle charge's workflow takes cycleCancelledSignal as a hint, as it takes a payment
 * notice: it asks PostgreSQL whether the cycle's recurrence is cancelled and the cycle still pending and not
 * yet due, and cancels only then. Runs before it cancelled on the signal alone (a bare `temporal workflow
 * signal` could cancel a cycle of an active recurrence).
 */
export const CYCLE_CANCELLATION_CONFIRMED = 'cycle-cancellation-confirmed';
