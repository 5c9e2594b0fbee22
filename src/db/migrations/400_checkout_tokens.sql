-- The payer's page (issue 31, design/checkout-page.md): every charge has an unguessable token, the only
-- thing /pay/{token} is looked up by. Made when the charge is inserted (src/domain/checkout-token.ts: 32
-- random bytes, base64url) and never derived from the id. Charges created before this migration get
-- one here: 32 bytes out of two version-4 UUIDs (PostgreSQL's strong random source, 244 random bits).
-- Transfers and deposits have none.
alter table transactions add column checkout_token text;

update transactions
   set checkout_token = translate(encode(decode(
         replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/=', '-_')
 where direction = 'in' and type = 'payment';

create unique index transactions_checkout_token on transactions (checkout_token) where checkout_token is not null;
