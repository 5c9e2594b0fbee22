// The search attributes every engine workflow carries, so an operator finds any run in the Temporal Web UI
// by account or by transaction. The dev servers register them at start (src/temporal/dev-server.ts,
// test/helpers/global-setup.ts).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ACCOUNT_ID_ATTRIBUTE = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const TRANSACTION_ID_ATTRIBUTE = defineSearchAttributeKey('TransactionId', SearchAttributeType.KEYWORD);

/** Every attribute above, for the servers that register them. */
export const ENGINE_SEARCH_ATTRIBUTES = [ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE];
