-- `metadata` on recurrences (design/developer-tooling.md), as on charges and transfers (migration 500):
-- the client's own key-value pairs, returned on the recurrence and in its recurrence.updated webhooks.
alter table recurrences add column metadata jsonb not null default '{}';
