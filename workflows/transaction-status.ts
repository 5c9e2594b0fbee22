// Keeps the run's `TransactionStatus` search attribute at its transaction's status, in runs started
// from the TRANSACTION_STATUS_SEARCH_ATTRIBUTE patch on (earlier runs replay without it).
import { patched, upsertSearchAttributes } from '@temporalio/workflow';
import { TRANSACTION_STATUS_ATTRIBUTE, TRANSACTION_STATUS_SEARCH_ATTRIBUTE } from '../contracts/transaction-status.contract.js';

export function showStatus(status: string): void {
  if (patched(TRANSACTION_STATUS_SEARCH_ATTRIBUTE)) upsertSearchAttributes([{ key: TRANSACTION_STATUS_ATTRIBUTE, value: status }]);
}
