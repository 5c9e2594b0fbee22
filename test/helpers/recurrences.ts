// A monthly recurrence as an integrator creates it (POST /v1/recurrences): a person pays R$ 99,90, first due
// in 5 days (São Paulo), inside the lead window, so its first cycle is created once it is authorized.
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { CPF } from './fixtures.js';

/** The São Paulo date `offset` days from today. */
export const day = (offset: number): string => addDays(saoPauloDate(new Date()), offset);

export const recurrenceBody = (overrides: Record<string, unknown> = {}) => ({
  payer: { name: 'Maria da Silva', document: CPF.valid },
  contract: 'CTR-2026-0042',
  description: 'Academia plano mensal',
  frequency: 'monthly',
  firstDueDate: day(5),
  amount: 99.9,
  ...overrides,
});
