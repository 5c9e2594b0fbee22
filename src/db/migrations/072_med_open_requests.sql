-- POST /admin/simulator/meds with an Idempotency-Key: the key binds the MED it opens (chosen before
-- its workflow starts) and the fingerprint of the request, so a retry joins that MED and a different
-- request under the same key is refused.
create table med_open_requests (
  idempotency_key text primary key,
  med_id text not null unique,
  fingerprint text not null,
  created_at timestamptz not null default now()
);
