-- The built-in Pix network simulator's view of the transfers it was asked to send (the `simulator`
-- route). Like simulator_charges it is the network's state: the engine learns from it only through
-- the route interface (send, status) and the settlement notification.
create table simulator_transfers (
  end_to_end_id text primary key,                        -- the network's identifier of the payment (E…)
  transaction_id text not null unique,                   -- the engine's out_… (the sender's reference)
  amount bigint not null check (amount > 0),             -- centavos that reach the destination
  destination jsonb not null,                            -- {type, value, keyType?} as the sender gave it
  one_time_code text,                                    -- a dynamic BR Code this transfer pays: payable once
  paid_charge_txid text,                                 -- a charge of this network that the transfer paid
  status text not null default 'pending' check (status in ('pending', 'approved', 'failed')),
  reason text,                                           -- why the network refused it
  created_at timestamptz not null default now(),
  settled_at timestamptz
);
-- A one-time code is paid by at most one transfer that has not failed.
create unique index simulator_transfers_one_time_code on simulator_transfers (one_time_code) where status <> 'failed';

-- The engine recognises a BR Code of its own charges (the internal case) by the code itself.
create index transactions_pix_copy_paste_idx on transactions using hash (pix_copy_paste);
