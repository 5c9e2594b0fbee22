-- The client's key-value pairs on a charge or a transfer (src/transactions/metadata.ts); {} when none.
alter table transactions add column metadata jsonb not null default '{}'::jsonb;
