-- Recurrences on a bcb-api-pix route (Pix Automático at a PSP): the PSP's id of the recurrence
-- (`idRec`, assigned by the PSP on POST /rec), which its webhooks name and every later call uses.
alter table recurrences add column route_ref text;
create unique index recurrences_route_ref_idx on recurrences (route, route_ref) where route_ref is not null;

-- A PSP's webhookrec names recurrences: the hint processor wakes their workflows as it does charges'.
alter table psp_hints drop constraint psp_hints_kind_check;
alter table psp_hints add constraint psp_hints_kind_check check (kind in ('charge', 'transfer', 'pix', 'recurrence'));
