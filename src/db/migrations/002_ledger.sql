-- Double-entry ledger. Every posting has a unique key (so a retried activity posts once) and entries
-- that sum to zero. A ledger account's balance is the sum of its entries, kept in `balance` by the
-- same transaction that inserts the entries.
--
-- Ledger account ids: `<acc_id>:available`, `<acc_id>:reserved`, `<acc_id>:retained` for customers;
-- platform accounts are sharded (`platform:fee_revenue:07`, `platform:pix_clearing:12`, 16 shards) so
-- that no single row is locked by every posting.
create table ledger_accounts (
  id text primary key,
  owner_id text,                                         -- acc_… for customer accounts, null for the platform
  kind text not null check (kind in ('available', 'reserved', 'retained', 'fee_revenue', 'pix_clearing')),
  balance bigint not null default 0,
  updated_at timestamptz not null default now(),
  constraint customer_balances_not_negative check (kind not in ('available', 'reserved', 'retained') or balance >= 0)
);
create index ledger_accounts_owner_idx on ledger_accounts (owner_id);

create table ledger_postings (
  id bigserial primary key,
  posting_key text not null unique,                      -- e.g. charge:txn_…:settle
  transaction_id text,
  description text not null,
  created_at timestamptz not null default now()
);
create index ledger_postings_transaction_idx on ledger_postings (transaction_id);

create table ledger_entries (
  id bigserial primary key,
  posting_id bigint not null references ledger_postings (id),
  ledger_account_id text not null references ledger_accounts (id),
  amount bigint not null check (amount <> 0),            -- signed centavos
  created_at timestamptz not null default now()
);
create index ledger_entries_posting_idx on ledger_entries (posting_id);
create index ledger_entries_account_idx on ledger_entries (ledger_account_id);
