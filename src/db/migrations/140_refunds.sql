-- Refunds (devolução) of a received Pix, initiated by an operator (rfd_). Accepting one reserves its
-- amount from the charge's account (available → reserved) in the transaction that inserts the row;
-- approval settles the reservation to Pix clearing, failure releases it. Postings: refund:<rfd>:reserve,
-- refund:<rfd>:settle, refund:<rfd>:release.
create table refunds (
  id text primary key,                                   -- rfd_…
  account_id text not null references accounts (id),    -- the charge's account, which bears the refund
  transaction_id text not null references transactions (id),
  idempotency_key text not null,                         -- unique per account, apart from transactions' keys
  fingerprint text not null,                             -- hash of the fields the idempotency rules compare
  route text not null,                                   -- the charge's route, through which the money goes back
  amount bigint not null check (amount > 0),             -- centavos
  reason text,
  status text not null default 'pending' check (status in ('pending', 'approved', 'failed')),
  failure_reason text,
  end_to_end_id text,                                    -- the route's id of the devolução (rtrId)
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  settled_at timestamptz,
  unique (account_id, idempotency_key),
  check ((status = 'pending') = (settled_at is null))
);
create index refunds_transaction_idx on refunds (transaction_id, created_at, id);

-- The built-in Pix network simulator's view of the devoluções it was asked to make (the `simulator`
-- route): the network's state, which the engine learns only through the route interface.
create table simulator_refunds (
  refund_id text primary key,                            -- the engine's rfd_… (the requester's reference)
  return_id text not null unique,                        -- the network's id of the devolução (D…)
  amount bigint not null check (amount > 0),
  status text not null default 'pending' check (status in ('pending', 'approved', 'failed')),
  reason text,                                           -- why the network refused it
  created_at timestamptz not null default now(),
  settled_at timestamptz
);
