// The search attributes every engine workflow carries, so an operator finds any run in the Temporal Web UI
// by account or by transaction. The dev server registers them at start (src/temporal/dev-server.ts).
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const ACCOUNT_ID_ATTRIBUTE = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const TRANSACTION_ID_ATTRIBUTE = defineSearchAttributeKey('TransactionId', SearchAttributeType.KEYWORD);
