-- Every transaction has a payer and an expiry (the spec's Transaction table types neither as
-- nullable). Charges always wrote both; a transfer's payer is the paying account and its expiry is
-- creation plus the charge TTL. Transfers written before get the same, with the default TTL of 15
-- minutes, and the columns then refuse a missing value.
update transactions t
set payer = jsonb_build_object('name', a.name, 'document', a.document, 'email', a.email)
from accounts a
where t.payer is null and a.id = t.account_id;

update transactions set expires_at = created_at + interval '15 minutes' where expires_at is null;

alter table transactions
  alter column payer set not null,
  alter column expires_at set not null;
