-- The admin API's event stream (GET /admin/events/stream) reads an account's events in the order their
-- transactions became visible, which neither created_at nor a sequence gives (both are taken before
-- commit). Each event keeps the id of the transaction that wrote it: every event of a transaction older
-- than the oldest one still running is final, so the stream reads up to there and never skips one
-- committed late. Events written before this migration have none and are not streamed.
alter table events add column xid xid8;
alter table events alter column xid set default pg_current_xact_id();
create index events_stream_idx on events (account_id, xid, id) where xid is not null;
