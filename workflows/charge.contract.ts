// The charge workflow's contract: what src/ starts it with, asks it and tells it, and what it
// answers. One workflow per charge, id `charge:<accountId>:<idempotency key>`.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ChargeDraft } from '../src/charges/draft.js';
import type { Transaction } from '../src/transactions/serialize.js';
import type { AcceptRequest, Refusal, TransactionWorkflowInput } from './transaction.contract.js';

export interface ChargeWorkflowInput extends TransactionWorkflowInput {
  ttlSeconds: number;
  draft: ChargeDraft;
}

/** The settled charge; null when the accept step refused it (nothing was kept). */
export type ChargeWorkflow = (input: ChargeWorkflowInput) => Promise<Transaction | null>;
export const CHARGE_WORKFLOW = 'chargeWorkflow';

export const chargeWorkflowId = (accountId: string, key: string): string => `charge:${accountId}:${key}`;

export type AcceptResult =
  | { outcome: 'created' | 'repeated'; transaction: Transaction }
  | { outcome: 'conflict'; transaction: null }
  | { outcome: 'refused'; refusal: Refusal };

export const acceptUpdate = defineUpdate<AcceptResult, [AcceptRequest]>('accept');
/** Asks the route for the latest state of a pending charge; answers the transaction as it is then. */
export const refreshUpdate = defineUpdate<Transaction, []>('refresh');

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
/** The route told the engine the charge was paid (the workflow confirms with the route). */
export const paymentNotifiedSignal = defineSignal<[]>('paymentNotified');
