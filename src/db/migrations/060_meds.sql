-- MED (Mecanismo Especial de Devolução): a dispute opened by the payer's institution against an
-- approved charge, for fraud or an operational failure. While it is open, the disputed amount is
-- retained from the receiving account's available balance (as much as is available then);
-- accepted: what was retained goes back to the payer; rejected: the retention is released.
create table meds (
  id text primary key,                                   -- med_…
  account_id text not null references accounts (id),    -- the receiving account
  transaction_id text not null references transactions (id),
  status text not null default 'open' check (status in ('open', 'accepted', 'rejected')),
  reason text not null,
  amount bigint not null check (amount > 0),             -- centavos disputed
  retained_amount bigint not null check (retained_amount >= 0 and retained_amount <= amount),
  returned_amount bigint not null default 0 check (returned_amount >= 0 and returned_amount <= retained_amount),
  deadline_at timestamptz not null,                      -- decision due; operators are alerted after it
  overdue boolean not null default false,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'open') = (decided_at is null)),
  check (status = 'accepted' or returned_amount = 0)
);
create index meds_list_idx on meds (account_id, created_at desc, id desc);
create index meds_transaction_idx on meds (transaction_id, created_at desc);
-- One open dispute per transaction at a time, enforced by the database.
create unique index meds_one_open_per_transaction on meds (transaction_id) where status = 'open';
