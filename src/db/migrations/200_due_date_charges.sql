-- Due-date charges (the standard's cobv, issue 28): a charge with a due date, billing rules (validity
-- after the due date, fine, interest, discounts, abatement) and an amount due that depends on the day
-- it is paid. `amount` stays the value sent; what arrived is `paid_amount`, on which the fee and the
-- percent split shares are computed at approval, with the fee rule the account had when it accepted
-- the charge. Immediate charges keep due_date, billing and fee_rule null; every charge approved from
-- now on records paid_amount.
alter table transactions
  add column due_date date,                              -- America/Sao_Paulo calendar day
  add column billing jsonb,                              -- {validityAfterDue, fine, interest, discounts, abatement}: centavos, hundredths of a percent
  add column fee_rule jsonb,                             -- {fixedCents, percent}: the account's charge fee when the charge was accepted
  add column paid_amount bigint check (paid_amount > 0), -- centavos the payer paid, set at approval
  add constraint transactions_due_date_billing check ((due_date is null) = (billing is null) and (due_date is null) = (fee_rule is null));

-- The simulated network computes the amount due on the day it is paid, as a PSP does for a cobv.
alter table simulator_charges
  add column due_date date,
  add column billing jsonb,
  add column paid_amount bigint check (paid_amount > 0),
  add constraint simulator_charges_due_date_billing check ((due_date is null) = (billing is null));
