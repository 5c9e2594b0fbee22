// Events are recorded in PostgreSQL in the same database transaction as the change they describe;
// the caller then hands the returned id to the `dispatchEvent` activity once that transaction commits.
import type { TxSql } from '../db/database.js';
import { serializeTransaction } from '../transactions/serialize.js';
import type { TransactionRow } from '../transactions/row.js';

export interface EventRecord {
  id: string;
  event: string;
  accountId: string;
  transactionId?: string | null;
  medId?: string | null;
  data: unknown;
}

/** Inserts the event once (a retried activity records nothing new) and returns its id. */
export async function recordEvent(tx: TxSql, record: EventRecord): Promise<string> {
  const payload = { id: record.id, event: record.event, createdAt: new Date().toISOString(), data: record.data };
  await tx`
    insert into events (id, account_id, type, transaction_id, med_id, payload)
    values (${record.id}, ${record.accountId}, ${record.event}, ${record.transactionId ?? null}, ${record.medId ?? null}, ${JSON.stringify(payload)}::text::jsonb)
    on conflict (id) do nothing`;
  return record.id;
}

/** `transaction.<status>` with id `evt_<transaction id>_<status>` and the full Transaction as `data`. */
export function recordTransactionEvent(tx: TxSql, row: TransactionRow): Promise<string> {
  return recordEvent(tx, {
    id: `evt_${row.id}_${row.status}`,
    event: `transaction.${row.status}`,
    accountId: row.accountId,
    transactionId: row.id,
    data: serializeTransaction(row),
  });
}
