// The events delivered to webhook receivers (the spec's Event kinds), with the resource each carries.
import { TransactionSchema } from '../transactions/schema.js';
import type { WebhookEvent } from './webhooks.js';

const transactionEvent = (status: 'approved' | 'failed' | 'cancelled', summary: string): WebhookEvent => ({
  name: `transaction.${status}`,
  summary,
  dataName: 'Transaction',
  data: TransactionSchema,
  idPattern: `^evt_(txn|out)_.+_${status}$`,
});

export const WEBHOOK_EVENTS: WebhookEvent[] = [
  transactionEvent('approved', 'A charge was paid or a transfer was sent (pending → approved)'),
  transactionEvent('failed', 'The operation failed definitively (pending → failed)'),
  transactionEvent('cancelled', 'A charge was cancelled, including by expiry (`data.expired` true)'),
];
