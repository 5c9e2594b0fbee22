// The events delivered to webhook receivers (the spec's Event kinds), with the resource each carries.
import { MedSchema } from '../meds/schema.js';
import { TransactionSchema } from '../transactions/schema.js';
import type { WebhookEvent } from './webhooks.js';

const transactionEvent = (status: 'approved' | 'failed' | 'cancelled', summary: string): WebhookEvent => ({
  name: `transaction.${status}`,
  summary,
  dataName: 'Transaction',
  data: TransactionSchema,
  idPattern: `^evt_(txn|out)_.+_${status}$`,
});

const medEvent = (name: 'med.created' | 'med.updated', summary: string, idPattern: string): WebhookEvent => ({
  name,
  summary,
  dataName: 'Med',
  data: MedSchema,
  idPattern,
});

export const WEBHOOK_EVENTS: WebhookEvent[] = [
  transactionEvent('approved', 'A charge was paid or a transfer was sent (pending → approved)'),
  transactionEvent('failed', 'The operation failed definitively (pending → failed)'),
  transactionEvent('cancelled', 'A charge was cancelled, including by expiry (`data.expired` true)'),
  medEvent('med.created', 'A dispute (MED) was opened by the payer institution and an amount is retained', '^evt_med_.+_created$'),
  medEvent('med.updated', 'The dispute changed: decided (accepted or rejected) or past its decision deadline', '^evt_med_.+_[a-z]+$'),
];
