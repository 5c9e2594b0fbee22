-- Webhook deliveries: one row per event and target (a registered endpoint, or the charge's own
-- webhookUrl), and one row per HTTP attempt of it. The delivery id is the X-Service-Delivery header.
create table webhook_deliveries (
  id text primary key,                                   -- whd_…, derived from event id and target key
  event_id text not null references events (id),
  account_id text not null references accounts (id),
  transaction_id text,
  target text not null check (target in ('endpoint', 'charge')),
  target_key text not null,                              -- the endpoint id, or 'charge'
  url text not null,
  -- Whose key signs: the endpoint's secret, or (legacy: a charge URL on an account without endpoints)
  -- the hex SHA-256 of the API key that created the charge.
  endpoint_id text references webhook_endpoints (id),
  signing_key_id text references api_keys (id),
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
  attempt_count integer not null default 0,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (event_id, target_key),
  check ((endpoint_id is null) <> (signing_key_id is null))
);
create index webhook_deliveries_transaction_idx on webhook_deliveries (transaction_id);

create table webhook_attempts (
  delivery_id text not null references webhook_deliveries (id),
  number integer not null,                               -- 1, 2, … in the order the attempts finished
  trigger text not null check (trigger in ('automatic', 'manual')),
  success boolean not null,
  status_code integer,
  error_code text,                                       -- timeout, redirect, http_status, connection_failed, address_refused, invalid_url
  error text,
  duration_ms integer not null,
  started_at timestamptz not null,
  finished_at timestamptz not null default now(),
  primary key (delivery_id, number)
);
