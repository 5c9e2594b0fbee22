// Names derived from (account, idempotency key), the identity of a transfer, as for charges: every
// concurrent request with one key names the same transaction and workflow.
import { createHash } from 'node:crypto';

export function transferTransactionId(accountId: string, key: string): string {
  return `out_${createHash('sha256').update(`transfer\n${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

export function transferWorkflowId(accountId: string, key: string): string {
  return `transfer:${accountId}:${key}`;
}
