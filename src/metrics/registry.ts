// The process's one Prometheus registry and the engine's own metrics (DESIGN "Operating the money").
// Every label value comes from a small fixed set: route templates, HTTP methods and statuses,
// transaction types and statuses, outcomes. Never an id, a key or a path as the client sent it.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });
const registers = [registry];

export const httpRequests = new Counter({
  name: 'pix_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpRequestDuration = new Histogram({
  name: 'pix_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
  registers,
});

export const transactionsReached = new Counter({
  name: 'pix_transactions_total',
  help: 'Transactions that reached a status (counted once, after the change committed)',
  labelNames: ['type', 'status'] as const,
  registers,
});

export const webhookAttempts = new Counter({
  name: 'pix_webhook_attempts_total',
  help: 'Webhook POSTs made, by outcome (success: a 2xx answer)',
  labelNames: ['outcome'] as const,
  registers,
});

export const webhookDeliveryLatency = new Histogram({
  name: 'pix_webhook_delivery_seconds',
  help: 'From the event being recorded (with the status change) to its webhook answered 2xx, automatic deliveries only',
  labelNames: ['event'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers,
});

export const unsettlablePayments = new Counter({
  name: 'pix_unsettlable_payments_total',
  help: 'Charges the route says were paid an amount the engine cannot settle exactly (alert PixPaymentUnsettlable)',
  registers,
});

export const ledgerPostings = new Counter({
  name: 'pix_ledger_postings_total',
  help: 'Ledger postings written (a posting key already posted counts nothing)',
  registers,
});

export const rateLimitRefusals = new Counter({
  name: 'pix_rate_limit_refusals_total',
  help: 'Requests refused with 429, by limit (api_key: the key quota; ip: the per-IP limit of public routes)',
  labelNames: ['limit'] as const,
  registers,
});

export const connectionsRefused = new Counter({
  name: 'pix_http_connections_refused_total',
  help: 'Connections closed on arrival because their client address already held HTTP_MAX_CONNECTIONS_PER_IP on that listener',
  registers,
});

export const ledgerCheckOk = new Gauge({
  name: 'pix_ledger_check_ok',
  help: '1 when the last ledger check of this process (GET /admin/ledger/check, pixctl ledger check) found no violation, 0 when it found some, NaN before its first check',
  registers,
});
// Unknown until a check runs: a 0 here would fire the ledger alert on every process that never ran one.
ledgerCheckOk.set(Number.NaN);

export const ledgerCheckTime = new Gauge({
  name: 'pix_ledger_check_timestamp_seconds',
  help: 'When this process last ran the ledger check (Unix time)',
  registers,
});

export const medsOpen = new Gauge({
  name: 'pix_meds_open',
  help: 'MEDs open (waiting for a decision), read from PostgreSQL at scrape time',
  registers,
});

export const medsOverdue = new Gauge({
  name: 'pix_meds_overdue',
  help: 'Open MEDs past their decision deadline, read from PostgreSQL at scrape time',
  registers,
});

export const pspHintsPending = new Gauge({
  name: 'pix_psp_hints_pending',
  help: 'PSP webhook hints stored and not yet acted on (Temporal unreachable, or waiting for their coalescing interval to end), read from PostgreSQL at scrape time',
  registers,
});

export const pspHintsOldestAge = new Gauge({
  name: 'pix_psp_hints_oldest_age_seconds',
  help: 'How long the oldest PSP webhook hint not yet acted on has waited (0 when none), read from PostgreSQL at scrape time',
  registers,
});

export const reconciliationItemsOpen = new Gauge({
  name: 'pix_reconciliation_items_open',
  help: 'Reconciliation items open (waiting for an operator), by route and kind, read from PostgreSQL at scrape time',
  labelNames: ['route', 'kind'] as const,
  registers,
});

export const reconciliationLastSuccess = new Gauge({
  name: 'pix_reconciliation_last_success_timestamp_seconds',
  help: 'When the last completed reconciliation run of the route ended (Unix time), read from PostgreSQL at scrape time; absent before the first',
  labelNames: ['route'] as const,
  registers,
});
