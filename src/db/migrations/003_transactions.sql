-- The read model of charges (txn_) and transfers (out_), and the events their state changes produce.
create table transactions (
  id text primary key,                                   -- txn_… charge, out_… transfer
  account_id text not null references accounts (id),
  external_id text not null,                             -- the idempotency key; unique per account across charges and transfers
  direction text not null check (direction in ('in', 'out')),
  type text not null check (type in ('payment', 'deposit', 'withdrawal', 'internal_transfer')),
  method text not null check (method in ('pix', 'internal')),
  status text not null default 'pending' check (status in ('pending', 'approved', 'failed', 'cancelled', 'refunded')),
  expired boolean not null default false,
  processing_state text not null default 'monitoring',
  acquirer text not null,                                -- processing route name
  amount bigint not null,                                -- centavos
  fee bigint not null,
  net_amount bigint not null,
  debited_amount bigint,
  recipient_amount bigint,
  split_amount bigint not null default 0,
  split jsonb not null default '[]',
  description text,
  payer jsonb,
  counterparty jsonb,
  pix_copy_paste text,
  pix_qr_code_base64 text,
  webhook_url text,
  fingerprint text not null,                             -- hash of the fields the idempotency rules compare
  api_key_id text references api_keys (id),              -- the key that created it (legacy webhook signing key)
  processor_ref text,                                    -- identifier at the route (charge txid, transfer end-to-end id)
  refunded_amount bigint not null default 0,
  expires_at timestamptz,
  approved_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (account_id, external_id)
);
create index transactions_list_idx on transactions (account_id, created_at desc, id desc);
create index transactions_status_idx on transactions (account_id, status, created_at desc);
create index transactions_processor_ref_idx on transactions (processor_ref);
-- At most one pending transfer per account, enforced by the database.
create unique index transactions_one_pending_transfer on transactions (account_id) where type = 'withdrawal' and status = 'pending';

-- Every state change of a transaction (and every MED change) is recorded here, in the same database
-- transaction as the change, and then delivered by the webhook machinery.
create table events (
  id text primary key,                                   -- evt_<transaction id>_<status>, or evt_<med id>_<n> for MEDs
  account_id text not null references accounts (id),
  type text not null,                                    -- transaction.approved, med.created, …
  transaction_id text,
  med_id text,
  payload jsonb not null,                                -- the delivered body: {id, event, createdAt, data}
  created_at timestamptz not null default now()
);
create index events_transaction_idx on events (transaction_id);
create index events_account_idx on events (account_id, created_at);
