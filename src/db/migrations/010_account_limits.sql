-- A charge limit range that cannot be empty: the database refuses chargeMin above chargeMax,
-- whichever of the two an operator changes.
alter table accounts add constraint accounts_charge_limits_order check (charge_min <= charge_max);
