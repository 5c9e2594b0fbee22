// The search attributes every engine workflow carries, so an operator finds any run in the Temporal Web UI
// by account or by transaction, and a transaction's by its status (contracts/transaction-status.contract.ts). The dev servers register them at start (src/temporal/dev-server.ts,
// test/helpers/global-setup.ts).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { TRANSACTION_STATUS_ATTRIBUTE } from '../../contracts/transaction-status.contract.js';

export const ACCOUNT_ID_ATTRIBUTE = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const TRANSACTION_ID_ATTRIBUTE = defineSearchAttributeKey('TransactionId', SearchAttributeType.KEYWORD);

/** Every attribute above, for the servers that register them. */
export const ENGINE_SEARCH_ATTRIBUTES = [ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE, TRANSACTION_STATUS_ATTRIBUTE];
