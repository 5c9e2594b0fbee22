// pix_transactions_total: called once a change of status has COMMITTED, by the code that made it
// (the accept step for `pending`, settleOnce for approved/failed/cancelled, the MED return for
// `refunded`). Each of them changes a status only from the state before it, under a row lock, so a
// retried activity finds the status already reached and counts nothing; a change that rolled back
// counted nothing. The one gap: a COMMIT whose answer is lost counts nothing (never twice).
import { countCycleOutcome } from './recurrences.js';
import { transactionsReached } from './registry.js';

export function countStatusReached(transaction: { type: string; status: string; recurrenceId?: string | null }): void {
  transactionsReached.inc({ type: transaction.type, status: transaction.status });
  const { status } = transaction;
  if (transaction.recurrenceId && (status === 'approved' || status === 'failed' || status === 'cancelled')) countCycleOutcome(status);
}
