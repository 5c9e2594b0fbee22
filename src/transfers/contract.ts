// The transfer workflow's contract: what src/ starts it with and tells it (besides the `accept` update
// every transaction workflow answers, transaction.contract.ts), what its activities answer, and what it
// answers. One workflow per transfer, id `transfer:<accountId>:<idempotency key>`.
import { defineSignal } from '@temporalio/workflow';
import type {
  DraftBasics,
  Persisted,
  RouteState,
  Settled,
  TransactionState,
  TransactionWorkflowInput,
} from '../../contracts/transaction.contract.js';

/** Where a transfer goes, as the API resolved it from the body (src/transfers/destination.ts). */
export type TransferDestination =
  /** `keyType`: the DICT key type (src/domain/pix-keys.ts). */
  | { type: 'pix_key'; keyType: string; key: string }
  | {
      type: 'br_code';
      /** The payload, exactly as the code carries it. */
      code: string;
      pixKey: string | null;
      url: string | null;
      /** The code's own amount; null when the payer types it. */
      amountCents: number | null;
      txid: string | null;
      merchantName: string;
      merchantCity: string;
      static: boolean;
    };

/** What the client asked for, judged by the account's rules in the accept step (src/transfers/terms.ts). */
export interface TransferAsked {
  /** The amount the body sent, in centavos; null when omitted (allowed when the BR Code defines it). */
  amountCents: number | null;
  coverFee: boolean;
  destination: TransferDestination;
}

/**
 * A transfer as the API previewed it when the request came (what a 202 shows), and what the client
 * asked. The accept step prices `asked` again against the account as it is then.
 */
export interface TransferDraft extends DraftBasics {
  /** `internal` when the destination is a BR Code of a pending charge of this engine. */
  method: 'pix' | 'internal';
  debitedAmountCents: number;
  recipientAmountCents: number;
  /** What the route is asked to pay. */
  destination: { type: 'pix_key' | 'pix_copy_paste' | 'qr_code'; value: string; keyType?: string };
  /** The paying account: the transaction's `payer` (the route is told its name and document). */
  payer: { name: string; document: string; email: string };
  /** The public `counterparty` of the transaction: the destination as resolved. */
  counterparty: Record<string, unknown>;
  /** Absent in runs whose draft the API priced (started before the accept step applied the account's rules). */
  asked?: TransferAsked;
}

export interface TransferWorkflowInput extends TransactionWorkflowInput {
  draft: TransferDraft;
}

/** A route's answer about a transfer. */
export type RouteTransferState = RouteState;

/**
 * What the one-step accept (TRANSFER_LOCAL_STEPS) answers: the persist step's answer and, when it
 * handed a new simulator transfer over to the route, the route's answer (absent: the workflow sends it).
 */
export type PersistedTransfer = Persisted | (Extract<Persisted, { outcome: 'persisted' }> & { sent: RouteTransferState });

/**
 * From this patch on, a transfer on the in-process simulator accepts in one local activity,
 * persistAndSendTransfer (persist, then hand over to the route), so the API's answer waits for one
 * activation of the workflow instead of two; and it asks the route and settles in local activities, in
 * the workflow task that receives the answer, instead of a regular activity (a server round trip) per
 * step, as charges do under PERSIST_AND_OPEN and LOCAL_SETTLEMENT. Should the send in the accept step
 * fail, the workflow's own send step runs. Runs started before it persist, then send, in two
 * local activities and settle in regular ones; remote routes keep regular activities after the accept.
 */
export const TRANSFER_LOCAL_STEPS = 'transfer-local-steps';

/**
 * What the accept step answers from TRANSFER_SETTLES_IN_ACCEPT: persistAndSendTransfer's answer and,
 * when the route answered the hand-over with its final word (approved or failed), the settlement it
 * made then (absent: the workflow settles in its own step).
 */
export type AcceptedTransfer = PersistedTransfer | (Extract<PersistedTransfer, { sent: RouteTransferState }> & { settled: Settled });

/**
 * From this patch on, a transfer accepts in one local activity, acceptTransfer, which also settles it
 * when the route answered the hand-over with its final word (the simulator paying a charge of its own
 * network, refusing a destination, or settling at once with SIMULATOR_TRANSFER_DELAY_MS=0): one local
 * activity and one workflow task for the whole transfer. Its runs carry this marker alone: the
 * patches before it (the status attribute, the settlement's dispatch, remote route calls, local
 * steps) hold for every run that has it, so they are not asked again, and a transfer settled in the
 * accept step shows its status once, the final one. Runs started before it keep their steps.
 */
export const TRANSFER_SETTLES_IN_ACCEPT = 'transfer-settles-in-accept';

/** The settled transfer; null when the accept step refused it (nothing was kept). */
export type TransferWorkflow = (input: TransferWorkflowInput) => Promise<TransactionState | null>;
export const TRANSFER_WORKFLOW = 'transferWorkflow';

export const transferWorkflowId = (accountId: string, key: string): string => `transfer:${accountId}:${key}`;

/** The route told the engine it answered the transfer (the workflow confirms with the route). */
export const networkAnsweredSignal = defineSignal<[]>('networkAnswered');

/** Polling of the route while no signal comes: every second at first, then backing off to a minute. */
export function pollDelayMs(poll: number): number {
  return Math.min(1000 * 2 ** Math.max(0, poll - 10), 60_000);
}
/** Polls per run before continuing as new, to keep a long wait's history small. */
export const POLLS_PER_RUN = 200;
