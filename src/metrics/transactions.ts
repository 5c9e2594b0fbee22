// pix_transactions_total: called once a change of status has COMMITTED, by the code that made it
// (the accept step for `pending`, settleOnce for approved/failed/cancelled, the MED return for
// `refunded`). Each of them changes a status only from the state before it, under a row lock, so a
// retried activity finds the status already reached and counts nothing; a change that rolled back
// counted nothing. The one gap: a COMMIT whose answer is lost counts nothing (never twice).
// pix_recurrence_cycles_total{outcome}: a recurrence's cycle charge counted when it reaches a final
// status (approved, failed, cancelled; here, with its transaction) and each time its debit is asked again
// after a decline (`retried`, three_in_seven_days; once per route call that succeeded).
import { Counter } from 'prom-client';
import { registry, transactionsReached } from './registry.js';

const cyclesReached = new Counter({
  name: 'pix_recurrence_cycles_total',
  help: 'Cycle charges of recurrences by outcome: approved, failed or cancelled when final; retried at each new debit attempt after a decline',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function countCycleOutcome(outcome: 'approved' | 'failed' | 'cancelled' | 'retried'): void {
  cyclesReached.inc({ outcome });
}

export function countStatusReached(transaction: { type: string; status: string; recurrenceId?: string | null }): void {
  transactionsReached.inc({ type: transaction.type, status: transaction.status });
  const { status } = transaction;
  if (transaction.recurrenceId && (status === 'approved' || status === 'failed' || status === 'cancelled')) countCycleOutcome(status);
}
