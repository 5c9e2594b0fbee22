// Names derived from (account, idempotency key), the identity of a charge or a transfer. Deriving
// the transaction id (instead of drawing it at random) lets every concurrent request with one key,
// and a 202 answer given before the workflow persisted anything, name the same transaction.
// The workflow ids are the contracts' (src/charges/contract.ts, transfer.contract.ts).
import { createHash } from 'node:crypto';

export function chargeTransactionId(accountId: string, key: string): string {
  return `txn_${createHash('sha256').update(`${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

export function transferTransactionId(accountId: string, key: string): string {
  return `out_${createHash('sha256').update(`transfer\n${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

/**
 * A prefix and the 24 hex digits every engine id but a delivery's carries (txn_, out_, med_, rfd_, rcn_, acc_, key_, req_, whe_, rec_),
 * and a reconciliation item's (rci_), which is the externalId of the deposit crediting it.
 */
const PREFIXED_ID = '(?:txn|out|med|rfd|rcn|acc|key|req|whe|rci|rec)_[0-9a-f]{24}';

/**
 * The exact shapes of the identifiers the engine generates: the ones above, a webhook delivery's
 * `whd_` and 32 hex digits, and an event's `evt_<transaction or MED id>_<change>`.
 */
export const ENGINE_ID_PATTERN = new RegExp(`^(?:${PREFIXED_ID}|whd_[0-9a-f]{32}|evt_${PREFIXED_ID}_[a-z_]+)$`);
