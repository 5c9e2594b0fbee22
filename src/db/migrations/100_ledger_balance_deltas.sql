-- Ledger postings without waiting on a hot balance row (issue 14, target 4). Every charge approval
-- credits its merchant and the platform's fee and clearing shards; with the balance in one row per
-- ledger account, concurrent approvals into one merchant queued on its row until each one's commit.
--
-- A posting that adds to a balance without a check (any credit, or a debit of a platform account) now
-- takes the row's lock only when it is free (SKIP LOCKED): when another transaction holds it, the
-- amount is written here instead, and the next posting that takes the row's lock moves the account's
-- committed deltas into the row. A posting that debits a customer balance locks the row (waiting),
-- moves the deltas in, and checks the balance, as before. Customer deltas are therefore credits only.
--
-- The balance of a ledger account is its row's balance plus its deltas: the view below, which every
-- reader uses. Deltas are few: at most what was posted to the account while its row was locked,
-- since the last posting that took the lock.
--
-- No foreign key from an entry or a delta to its ledger account: checking one locks the account's row
-- (FOR KEY SHARE), and that lock waits on the transaction holding the row, which is exactly what a
-- posting must not do here (measured: deadlocks between two postings that each hold the row the
-- other's entry references). Rows are never deleted, and a posting writes its entries in the
-- statement that creates any row they lack; the ledger check compares every account that has entries,
-- with or without a row, with its balance.
alter table ledger_entries drop constraint ledger_entries_ledger_account_id_fkey;

create table ledger_balance_deltas (
  ledger_account_id text not null,
  amount bigint not null check (amount <> 0)
);
create index ledger_balance_deltas_account_idx on ledger_balance_deltas (ledger_account_id);

create view ledger_balances as
select a.id, a.owner_id, a.kind,
       a.balance + coalesce((select sum(d.amount) from ledger_balance_deltas d where d.ledger_account_id = a.id), 0)::bigint as balance
  from ledger_accounts a;
