-- The metrics' due-date gauges (pending, overdue) count pending due-date charges at every scrape:
-- without this partial index that is a scan of every transaction, every 15 seconds.
create index transactions_due_date_pending_idx on transactions (due_date) where status = 'pending' and due_date is not null;
