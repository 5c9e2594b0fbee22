// Keeps the run's `TransactionStatus` search attribute at its transaction's (or recurrence's) status, in
// runs started from the kind's patch on (earlier runs replay without it).
import { patched, upsertSearchAttributes } from '@temporalio/workflow';
import { TRANSACTION_STATUS_ATTRIBUTE, TRANSACTION_STATUS_SEARCH_ATTRIBUTE } from '../contracts/transaction-status.contract.js';

export function showStatus(status: string, patch = TRANSACTION_STATUS_SEARCH_ATTRIBUTE): void {
  if (patched(patch)) setStatusAttribute(status);
}

/** For runs of a later patch, which holds for all of them: the status, with no patch asked. */
export function setStatusAttribute(status: string): void {
  upsertSearchAttributes([{ key: TRANSACTION_STATUS_ATTRIBUTE, value: status }]);
}
