// The `TransactionStatus` search attribute: every charge, transfer and refund workflow keeps it at its
// transaction's status (pending, approved, failed, cancelled; refused when the accept step refused it),
// and every recurrence workflow at its recurrence's status, so an operator finds "what was refused
// today" with one filter in the Temporal Web UI. Set by the workflows (upsertSearchAttributes) from the
// patches below; runs started before them never set it.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TRANSACTION_STATUS_ATTRIBUTE = defineSearchAttributeKey('TransactionStatus', SearchAttributeType.KEYWORD);

/** The accept step refused the operation: nothing was kept (the read model has no row for it). */
export const REFUSED_STATUS = 'refused';

/** From this patch on, the workflows keep TRANSACTION_STATUS_ATTRIBUTE current. */
export const TRANSACTION_STATUS_SEARCH_ATTRIBUTE = 'transaction-status-search-attribute';

/**
 * From this patch on, a refund whose approval left its charge fully refunded shows `refunded` (the
 * charge's status): the charge's own run closed at payment, and a closed run's attributes cannot change.
 */
export const REFUNDED_CHARGE_STATUS = 'refunded-charge-status';

/** From this patch on, the recurrence workflow keeps TRANSACTION_STATUS_ATTRIBUTE at the recurrence's status. */
export const RECURRENCE_STATUS_SEARCH_ATTRIBUTE = 'recurrence-status-search-attribute';
