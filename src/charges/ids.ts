// Names derived from (account, idempotency key), the identity of a charge. Deriving the transaction
// id (instead of drawing it at random) lets every concurrent request with one key, and a 202 answer
// given before the workflow persisted anything, name the same transaction.
import { createHash } from 'node:crypto';

export function chargeTransactionId(accountId: string, key: string): string {
  return `txn_${createHash('sha256').update(`${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

export function chargeWorkflowId(accountId: string, key: string): string {
  return `charge:${accountId}:${key}`;
}
