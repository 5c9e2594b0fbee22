-- Reconciliation against the PSP (books.md): runs (rcn_) compare a route's own records of a window
-- with the engine's, and every disagreement is an item (rci_), one per PSP record, keyed by the route
-- and the record's id at the PSP, so that a run over the same route and window finds the same items.
create table reconciliation_runs (
  id text primary key,                                   -- rcn_…
  route text not null,
  window_from timestamptz not null,
  window_to timestamptz not null,
  status text not null default 'running' check (status in ('running', 'completed', 'failed')),
  failure text,                                          -- why a failed run stopped
  psp_received bigint not null default 0,                -- received Pix the route listed for the window
  psp_sent bigint not null default 0,                    -- envios
  psp_refunds bigint not null default 0,                 -- devoluções of the received Pix
  matched bigint not null default 0,                     -- of those, the ones that agree with the engine
  started_at timestamptz not null default now(),
  completed_at timestamptz,                              -- when it ended, completed or failed
  check ((status = 'running') = (completed_at is null)),
  check (window_from < window_to)
);
create index reconciliation_runs_list_idx on reconciliation_runs (started_at desc, id desc);
create index reconciliation_runs_route_idx on reconciliation_runs (route, started_at desc, id desc);
create index reconciliation_runs_completed_idx on reconciliation_runs (route, completed_at desc) where status = 'completed';

create table reconciliation_items (
  id text primary key,                                   -- rci_… derived from (route, record_key)
  run_id text not null references reconciliation_runs (id), -- the run that first found it
  route text not null,
  record_key text not null,                              -- pix:<e2e>, envio:<idEnvio>, devolucao:<id>, or missing:<engine id>
  kind text not null check (kind in ('late_settlement', 'paid_after_cancel', 'amount_mismatch', 'unmatched_received',
                                     'transfer_unsettled', 'refund_unsettled', 'med_unrecorded', 'missing_at_psp')),
  status text not null check (status in ('corrected', 'open', 'resolved')),
  transaction_id text,
  end_to_end_id text,
  txid text,
  id_envio text,
  psp_amount bigint,                                     -- centavos, as the PSP says
  engine_amount bigint,                                  -- centavos, as the engine says
  held_amount bigint not null default 0 check (held_amount >= 0), -- centavos this item holds in the route's suspense
  payer jsonb,                                           -- who sent a received Pix, as the PSP says (a credit's payer)
  detail text not null,
  resolution jsonb,                                      -- {action, accountId?, transactionId?, note?, refund?}
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  unique (route, record_key),
  check ((status = 'resolved') = (resolved_at is not null))
);
create index reconciliation_items_open_idx on reconciliation_items (route, kind) where status = 'open';
create index reconciliation_items_held_idx on reconciliation_items (route) where held_amount > 0;

-- The items each run found (a later run over the same window finds the earlier run's items again).
create table reconciliation_run_items (
  run_id text not null references reconciliation_runs (id),
  item_id text not null references reconciliation_items (id),
  primary key (run_id, item_id)
);

-- A running run's working set: every PSP record it read (in the window, or in the margins around it
-- that only tell which engine operations the PSP holds), the engine operation it names and its item.
-- A retried step reads its records again and finds them here; the run's counts come from it, and it
-- is emptied when the run ends.
create table reconciliation_records (
  run_id text not null,
  record_key text not null,
  record_type text not null check (record_type in ('received', 'sent', 'refund')),
  in_window boolean not null,
  engine_id text,                                        -- txn_…, out_…, rfd_… or rci_… the record is about
  item_id text,
  primary key (run_id, record_key)
);
create index reconciliation_records_engine_idx on reconciliation_records (run_id, engine_id) where engine_id is not null;

-- Engine operations a route settled in a window: what the PSP's lists must show (missing_at_psp).
create index transactions_route_approved_idx on transactions (acquirer, approved_at) where approved_at is not null;

-- Suspense: a platform ledger account per route (platform:suspense:<route>) for money the PSP received
-- that belongs to no charge.
alter table ledger_accounts drop constraint ledger_accounts_kind_check;
alter table ledger_accounts add constraint ledger_accounts_kind_check
  check (kind in ('available', 'reserved', 'retained', 'fee_revenue', 'pix_clearing', 'suspense'));

-- The simulated network's records, as a PSP's lists give them. A paid charge keeps the end-to-end id
-- of the Pix that paid it (the engine keeps it too); charges paid before now get one derived from their txid.
alter table simulator_charges add column end_to_end_id text unique;
update simulator_charges
  set end_to_end_id = 'E00000000' || to_char(paid_at at time zone 'UTC', 'YYYYMMDDHH24MI') || substr(md5(txid), 1, 11)
  where status = 'paid';
update transactions t set end_to_end_id = c.end_to_end_id
  from simulator_charges c
  where c.transaction_id = t.id and t.end_to_end_id is null and c.end_to_end_id is not null;
create index simulator_charges_paid_idx on simulator_charges (paid_at, end_to_end_id) where status = 'paid';

-- Pix the simulated network received that no charge asked for (POST /admin/simulator/pix): to the key,
-- or naming a txid (of a charge cancelled, paid, of another value, or one never issued).
create table simulator_received_pix (
  end_to_end_id text primary key,
  txid text,
  account_id text,                                       -- the account whose key the payer chose, when named
  amount bigint not null check (amount > 0),
  payer jsonb not null,
  received_at timestamptz not null default now()
);
create index simulator_received_pix_time_idx on simulator_received_pix (received_at, end_to_end_id);

-- A devolução names the received Pix it returns (the network lists it under that Pix), and its nature.
alter table simulator_refunds add column end_to_end_id text;
alter table simulator_refunds add column nature text not null default 'ORIGINAL'
  check (nature in ('ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE'));
update simulator_refunds s set end_to_end_id = t.end_to_end_id
  from refunds r join transactions t on t.id = r.transaction_id
  where r.id = s.refund_id;
create index simulator_refunds_pix_idx on simulator_refunds (end_to_end_id);

create index simulator_transfers_time_idx on simulator_transfers (created_at, end_to_end_id);
