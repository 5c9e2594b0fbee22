-- An internal transfer (a BR Code of this engine's own charge) names the charge it pays, so that money
-- returned of that charge (a refund, an accepted MED) goes back to the paying account (src/returns/payer.ts).
alter table transactions add column pays_transaction_id text;
create index transactions_pays_transaction_id_idx on transactions (pays_transaction_id) where pays_transaction_id is not null;
