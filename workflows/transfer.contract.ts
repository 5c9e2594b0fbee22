// The transfer workflow's contract: what src/ starts it with and tells it, and what it answers.
// One workflow per transfer, id `transfer:<accountId>:<idempotency key>`.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { TransferDraft, TransferRefusal } from '../src/transfers/draft.js';
import type { Transaction } from '../src/transactions/serialize.js';
import type { AcceptOutcome, AcceptRequest, TransactionWorkflowInput } from './transaction.contract.js';

export interface TransferWorkflowInput extends TransactionWorkflowInput {
  draft: TransferDraft;
}

/** The settled transfer; null when the accept step refused it (nothing was kept). */
export type TransferWorkflow = (input: TransferWorkflowInput) => Promise<Transaction | null>;
export const TRANSFER_WORKFLOW = 'transferWorkflow';

export const transferWorkflowId = (accountId: string, key: string): string => `transfer:${accountId}:${key}`;

export type TransferAcceptResult = AcceptOutcome<TransferRefusal>;

export const transferAcceptUpdate = defineUpdate<TransferAcceptResult, [AcceptRequest]>('accept');
/** The route told the engine it answered the transfer (the workflow confirms with the route). */
export const networkAnsweredSignal = defineSignal<[]>('networkAnswered');

/** Polling of the route while no signal comes: every second at first, then backing off to a minute. */
export function pollDelayMs(poll: number): number {
  return Math.min(1000 * 2 ** Math.max(0, poll - 10), 60_000);
}
/** Polls per run before continuing as new, to keep a long wait's history small. */
export const POLLS_PER_RUN = 200;
