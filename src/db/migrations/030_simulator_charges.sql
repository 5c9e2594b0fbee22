-- The built-in Pix network simulator's own view of the charges it issued (the `simulator` route).
-- It is the network's state, not the engine's: the engine learns from it only through the route
-- interface (create, status, cancel) and the payment notification.
create table simulator_charges (
  txid text primary key,                                 -- the BR Code's txid: identifies the charge on the network
  transaction_id text not null unique,                   -- the engine's txn_… (the receiver's reference)
  amount bigint not null check (amount > 0),             -- centavos the payer must pay (the BR Code's amount)
  br_code text not null,
  qr_code_base64 text not null,
  status text not null default 'active' check (status in ('active', 'paid', 'cancelled')),
  expires_at timestamptz not null,
  payer jsonb,                                           -- who paid, as the payer's institution reported it
  paid_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text check (cancel_reason in ('expired', 'other')),
  created_at timestamptz not null default now()
);
