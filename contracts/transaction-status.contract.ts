// The `TransactionStatus` search attribute: every charge, transfer and refund workflow keeps it at its
// transaction's status (pending, approved, failed, cancelled; refused when the accept step refused it),
// so an operator finds "what was refused today" with one filter in the Temporal Web UI. Set by the
// workflows (upsertSearchAttributes) from the patch below; runs started before it never set it.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TRANSACTION_STATUS_ATTRIBUTE = defineSearchAttributeKey('TransactionStatus', SearchAttributeType.KEYWORD);

/** The accept step refused the operation: nothing was kept (the read model has no row for it). */
export const REFUSED_STATUS = 'refused';

/** From this patch on, the workflows keep TRANSACTION_STATUS_ATTRIBUTE current. */
export const TRANSACTION_STATUS_SEARCH_ATTRIBUTE = 'transaction-status-search-attribute';
