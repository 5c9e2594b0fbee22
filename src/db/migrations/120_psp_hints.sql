-- PSP webhook hints, durable (books.md, "Reconciliation against the PSP"): the listener stores the
-- names a webhook body carries in the request, before it answers 200, and the engine's hint processor
-- (src/psp-webhooks/hint-processor.ts) wakes the workflows from here. A process that dies after the 200
-- leaves its rows for the next processor: the hint is delayed, never lost.
--
-- One row per name of a body. A processor takes due rows with FOR UPDATE SKIP LOCKED and keeps them
-- locked until it has signalled, so two processors never act on one row, and one that dies lets go of
-- its rows at once (its transaction ends with its connection). A row acted on keeps `signalled_at` for
-- PSP_WEBHOOK_HINT_INTERVAL_MS: it is the window in which further hints for the same name wait
-- (`next_attempt_at` moved to the window's end) and then become one signal, as do all the rows of a
-- name it acts on. Rows that named nothing to wake are deleted; rows whose signal Temporal refused are
-- retried with backoff (`attempts`).
create table psp_hints (
  id bigint generated always as identity primary key,
  route text not null,
  -- charge: a charge id (from the txid); transfer: a transfer id (from gnExtras.idEnvio); pix: the
  -- endToEndId of a received Pix, whose MED devoluções are checked.
  kind text not null check (kind in ('charge', 'transfer', 'pix')),
  name text not null,
  received_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  signalled_at timestamptz
);
create index psp_hints_due_idx on psp_hints (next_attempt_at, id) where signalled_at is null;
create index psp_hints_name_idx on psp_hints (route, kind, name);
create index psp_hints_expiry_idx on psp_hints (signalled_at) where signalled_at is not null;
