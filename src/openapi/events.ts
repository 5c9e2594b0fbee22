// The events delivered to webhook receivers (the spec's Event kinds), with the resource each carries,
// read from what the engine records (transactions/events.ts, meds/events.ts, refunds/events.ts): `transaction.<status>`
// for every status a transaction reaches after `pending` (settlements, and `refunded` when an accepted
// MED or refunds returned the whole amount), `med.created` and `med.updated` for the MED changes,
// `refund.<change>` for refunds (refunds/events.ts). The lists are exhaustive over the code's types: a
// new status, MED or refund change does not compile until it is documented here.
import type { MedChange } from '../meds/events.js';
import type { RefundChange } from '../refunds/events.js';
import { RefundSchema } from '../refunds/schema.js';
import { MedSchema } from '../meds/schema.js';
import type { TransactionStatus } from '../transactions/row.js';
import { TransactionSchema } from '../transactions/schema.js';
import type { WebhookEvent } from './webhooks.js';
import { RecurrenceSchema } from '../recurrences/schema.js';

const TRANSACTION_EVENTS: Record<Exclude<TransactionStatus, 'pending'>, string> = {
  approved: 'A charge was paid or a transfer was sent (pending → approved)',
  failed: 'The operation failed definitively (pending → failed)',
  cancelled: 'A charge was cancelled, including by expiry (`data.expired` true)',
  refunded: 'The whole amount of the charge went back to the payer, by refunds or accepted disputes (MED) (approved → refunded)',
};

/** The event each MED change is recorded as. */
const MED_EVENTS: Record<MedChange, 'med.created' | 'med.updated'> = {
  created: 'med.created',
  overdue: 'med.updated',
  accepted: 'med.updated',
  rejected: 'med.updated',
};

const MED_SUMMARIES: Record<'med.created' | 'med.updated', string> = {
  'med.created': 'A dispute (MED) was opened by the payer institution and an amount is retained',
  'med.updated': 'The dispute changed: decided (accepted or rejected) or past its decision deadline',
};

const transactionEvents = Object.entries(TRANSACTION_EVENTS).map(([status, summary]): WebhookEvent => ({
  name: `transaction.${status}`,
  summary,
  dataName: 'Transaction',
  data: TransactionSchema,
  idPattern: `^evt_(txn|out)_.+_${status}$`,
}));

const medEvents = Object.entries(MED_SUMMARIES).map(([name, summary]): WebhookEvent => {
  const changes = Object.entries(MED_EVENTS)
    .filter(([, event]) => event === name)
    .map(([change]) => change);
  return { name, summary, dataName: 'Med', data: MedSchema, idPattern: `^evt_med_.+_(${changes.join('|')})$` };
});

const REFUND_EVENTS: Record<RefundChange, string> = {
  created: 'An operator asked for a refund (devolução) of a charge; its amount is reserved from the available balance',
  approved: 'The refund reached the payer (pending → approved)',
  failed: 'The refund was not made; its reservation went back to the available balance (pending → failed)',
};

const refundEvents = Object.entries(REFUND_EVENTS).map(([change, summary]): WebhookEvent => ({
  name: `refund.${change}`,
  summary,
  dataName: 'Refund',
  data: RefundSchema,
  idPattern: `^evt_rfd_.+_${change}$`,
}));

/** Pix Automático: every status a recurrence reaches, one event kind (recurrences/events.ts). */
const recurrenceEvent: WebhookEvent = {
  name: 'recurrence.updated',
  summary:
    'A recurrence (Pix Automático) changed status: authorized (active), rejected, expired, cancelled (by either side, `data.cancelledBy`) or completed',
  dataName: 'Recurrence',
  data: RecurrenceSchema,
  idPattern: '^evt_rec_.+_(active|rejected|expired|cancelled|completed)$',
};

export const WEBHOOK_EVENTS: WebhookEvent[] = [...transactionEvents, ...medEvents, ...refundEvents, recurrenceEvent];
