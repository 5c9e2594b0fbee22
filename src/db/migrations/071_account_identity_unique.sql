-- One account per document and per e-mail, unless an operator explicitly allows a duplicate
-- (POST /admin/accounts with allowDuplicate: true sets duplicate_allowed). Documents are compared by
-- their digits and letters (no mask, upper case), e-mails case-insensitively.
alter table accounts add column duplicate_allowed boolean not null default false;

-- Accounts created before this rule that share a document or an e-mail with an older account stay as
-- they are, marked as allowed duplicates, so that the oldest of each group holds the identity.
update accounts a set duplicate_allowed = true
where exists (
  select 1 from accounts o
  where (o.created_at, o.id) < (a.created_at, a.id)
    and (upper(regexp_replace(o.document, '[^0-9A-Za-z]', '', 'g')) = upper(regexp_replace(a.document, '[^0-9A-Za-z]', '', 'g'))
         or lower(o.email) = lower(a.email))
);

create unique index accounts_document_unique on accounts (upper(regexp_replace(document, '[^0-9A-Za-z]', '', 'g'))) where not duplicate_allowed;
create unique index accounts_email_unique on accounts (lower(email)) where not duplicate_allowed;
