-- Accounts of the engine's customers, their API keys, their webhook endpoints, and the shared
-- rate-limit counters. Money is integer centavos (bigint); percentages are numeric percent (1.5 = 1.5 %).
create table accounts (
  id text primary key,                                   -- acc_…
  name text not null,
  document text not null,                                -- CPF or CNPJ, digits (and letters for alphanumeric CNPJ) only
  email text not null,
  kyc_status text not null default 'pending' check (kyc_status in ('approved', 'pending')),
  status text not null default 'active' check (status in ('active', 'blocked')),
  withdrawals_blocked boolean not null default false,
  pix_receiving_enabled boolean not null default true,
  fee_charge_fixed bigint not null default 0 check (fee_charge_fixed >= 0),
  fee_charge_percent numeric(7, 4) not null default 0 check (fee_charge_percent >= 0 and fee_charge_percent < 100),
  fee_transfer_fixed bigint not null default 0 check (fee_transfer_fixed >= 0),
  fee_transfer_percent numeric(7, 4) not null default 0 check (fee_transfer_percent >= 0 and fee_transfer_percent < 100),
  charge_min bigint not null default 100 check (charge_min > 0),
  charge_max bigint not null default 1000000 check (charge_max > 0),
  transfer_min bigint not null default 300 check (transfer_min > 0),
  route text not null default 'simulator',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index accounts_document_idx on accounts (document);
create index accounts_email_idx on accounts (lower(email));

create table api_keys (
  id text primary key,                                   -- key_…
  account_id text not null references accounts (id),
  key_hash text not null unique,                         -- hex SHA-256 of the whole key; the key itself is never stored
  key_prefix text not null,                              -- first characters, for operators to recognise a key
  permissions text[] not null,
  allowed_ips text[] not null default '{}',              -- IPs and CIDRs; empty = any
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index api_keys_account_idx on api_keys (account_id);

-- One row per key: the window starts at the key's first call and lasts 60 s.
create table rate_limit_windows (
  key_id text primary key references api_keys (id),
  window_start timestamptz not null,
  count integer not null
);

create table webhook_endpoints (
  id text primary key,                                   -- whe_…
  account_id text not null references accounts (id),
  url text not null,
  secret text not null,                                  -- needed in clear to sign deliveries; shown once to the client
  created_at timestamptz not null default now(),
  disabled_at timestamptz
);
create index webhook_endpoints_account_idx on webhook_endpoints (account_id);
