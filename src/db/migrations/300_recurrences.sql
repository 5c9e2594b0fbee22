-- Recurring payments, Pix Automático (issue 29): a recurrence the payer authorizes once, then one
-- charge per cycle (a `transactions` row of type payment with recurrence_id and due_date), debited by
-- the payer's bank on its due date. The recurrence's workflow owns its status; this is its read model.
create table recurrences (
  id text primary key,                                   -- rec_ and 24 hex digits, derived from (account, key)
  account_id text not null references accounts (id),
  external_id text not null,                             -- the idempotency key
  status text not null check (status in ('pending_authorization', 'active', 'rejected', 'expired', 'cancelled', 'completed')),
  payer jsonb not null,                                  -- {name, document}
  contract text not null,
  description text not null,
  frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'semiannual', 'annual')),
  first_due_date date not null,
  end_date date,
  amount bigint check (amount > 0),                      -- centavos: a fixed amount, or null
  minimum_amount bigint check (minimum_amount > 0),      -- centavos: a variable amount's floor, or null
  payer_maximum_amount bigint check (payer_maximum_amount > 0),
  retry_policy text not null check (retry_policy in ('none', 'three_in_seven_days')),
  authorization_copy_paste text not null,
  authorization_qr_code_base64 text not null,
  authorization_expires_at timestamptz not null,
  first_payment_amount bigint check (first_payment_amount > 0),
  first_payment_transaction_id text,
  cancelled_by text check (cancelled_by in ('merchant', 'payer', 'route')),
  route text not null,
  webhook_url text,
  fingerprint text not null,
  api_key_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authorized_at timestamptz,
  unique (account_id, external_id),
  check ((amount is null) <> (minimum_amount is null))
);
create index recurrences_account_idx on recurrences (account_id, created_at desc, id desc);
create index recurrences_account_status_idx on recurrences (account_id, status, created_at desc, id desc);
create index recurrences_first_payment_idx on recurrences (first_payment_transaction_id) where first_payment_transaction_id is not null;

alter table transactions add column recurrence_id text references recurrences (id);
create index transactions_recurrence_idx on transactions (recurrence_id, created_at desc, id desc) where recurrence_id is not null;

-- A recurrence's events (recurrence.updated) name it, so that its webhookUrl receives them.
alter table events add column recurrence_id text;

-- The simulated payer's bank: the attempts of a cycle's debit that failed for lack of funds, and
-- whether the engine asked for the next one.
alter table simulator_charges
  add column declined_attempts integer not null default 0,
  add column retry_requested_on date[] not null default '{}';
