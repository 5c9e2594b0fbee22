-- The payer's page of a recurrence's authorization (issue 31, design/checkout-page.md): every
-- recurrence has an unguessable token, as every charge has (migration 400), looked up by /pay/{token}
-- beside the charges' tokens. Made when the recurrence is inserted (src/domain/checkout-token.ts);
-- recurrences created before this migration get one here, 32 bytes out of two version-4 UUIDs as in
-- migration 400.
alter table recurrences add column checkout_token text;

update recurrences
   set checkout_token = translate(encode(decode(
         replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/=', '-_');

alter table recurrences alter column checkout_token set not null;
create unique index recurrences_checkout_token on recurrences (checkout_token);
