-- The Pix network's id of the payment that approved a charge (its endToEndId, when the route tells
-- it): a PSP webhook names a received Pix by it, and the MED devoluções of that Pix are asked by it.
-- A MED recorded from a PSP's devolução keeps the devolução's id, so each is recorded once.
alter table transactions add column end_to_end_id text;
create unique index transactions_end_to_end_id_idx on transactions (end_to_end_id) where end_to_end_id is not null;
alter table meds add column route_return_id text;
create unique index meds_route_return_idx on meds (transaction_id, route_return_id) where route_return_id is not null;
