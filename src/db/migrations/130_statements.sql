-- Statements (books.md, "Statements"; src/ledger/statement.ts): an account's available balance between two
-- instants, entry by entry, read from the ledger.
--
-- A statement reads the entries of one ledger account in a window of time, in order, and sums those
-- after its start for the opening balance. The index of migration 002 on the account alone made each of
-- those read every entry the account ever had; this one finds the window and carries the amount, so
-- the sum is read from the index. It replaces that index, whose queries it serves as well.
create index ledger_entries_account_time_idx on ledger_entries (ledger_account_id, created_at, id) include (amount);
drop index ledger_entries_account_idx;

-- A charge whose split took all its net credits its account nothing, yet is the account's charge (and
-- its fee): the statement finds those few among the account's transactions here.
create index transactions_zero_net_charges_idx on transactions (account_id) where direction = 'in' and net_amount = 0;
