// Charges whose amount depends on the day: due-date charges paid early (a discount) or late (a fine
// and a day's interest per day late; sometimes first tried past their validity, which the network
// refuses), and the cycles of Pix Automático recurrences, debited or declined by the payer's bank.
// The workload prices each payment itself, from terms of fixed amounts only, so the checks can hold
// what the engine recorded against what the payer must have paid.
import { randomBytes, randomInt } from 'node:crypto';
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { addDays, daysBetween, saoPauloDate } from '../../contracts/calendar.js';
import type { Answer } from './client.js';
import { errorOf, reais, Unexpected, newKey, type Driver, type Lane } from './driver.js';

const ABATEMENT_CENTS = 50;
const FINE_CENTS = 200;
const INTEREST_PER_DAY_CENTS = 10;
const EARLY_DISCOUNT_CENTS = 300;
const DISCOUNT_CENTS = 100;
const VALIDITY_AFTER_DUE = 15;

interface DueTerms {
  amountCents: number;
  dueDate: string;
  /** The last day of the larger discount (early ones only). */
  earlyUntil: string | null;
}

/** The amount due on `day` (the due-date charges contract, with fixed amounts only). */
function amountDue(terms: DueTerms, day: string): number {
  const base = terms.amountCents - ABATEMENT_CENTS;
  const late = daysBetween(terms.dueDate, day);
  if (late > 0) return base + FINE_CENTS + INTEREST_PER_DAY_CENTS * late;
  if (terms.earlyUntil === null) return base;
  return base - (daysBetween(day, terms.earlyUntil) >= 0 ? EARLY_DISCOUNT_CENTS : DISCOUNT_CENTS);
}

function dueDateBody(terms: DueTerms): Record<string, unknown> {
  return {
    dueDate: terms.dueDate,
    validityAfterDue: VALIDITY_AFTER_DUE,
    abatement: { mode: 'fixed', value: ABATEMENT_CENTS / 100 },
    fine: { mode: 'fixed', value: FINE_CENTS / 100 },
    interest: { mode: 'fixed_per_day', value: INTEREST_PER_DAY_CENTS / 100 },
    ...(terms.earlyUntil === null
      ? {}
      : {
          discounts: [
            { until: terms.earlyUntil, mode: 'fixed', value: EARLY_DISCOUNT_CENTS / 100 },
            { until: terms.dueDate, mode: 'fixed', value: DISCOUNT_CENTS / 100 },
          ],
        }),
  };
}

const alreadyPaid = (a: Answer) => a.status === 409 && a.body?.error?.code === 'charge_already_paid';

/** The simulated payer pays `chargeId` (on `paidOn`); 409 charge_already_paid is an earlier attempt whose answer was lost. */
async function pay(driver: Driver, chargeId: string, paidOn?: string): Promise<void> {
  const paid = await driver.admin('POST', `/simulator/charges/${chargeId}/pay`, paidOn === undefined ? undefined : { paidOn });
  if (paid.status !== 200 && !alreadyPaid(paid)) throw new Unexpected(`pay ${chargeId} on ${paidOn ?? 'today'} answered ${errorOf(paid)}`);
}

/** Waits for the charge's approval; an approved charge joins those refunds and MEDs draw on. */
async function approved(driver: Driver, lane: Lane, chargeId: string): Promise<void> {
  if ((await driver.finalStatus(chargeId)) === 'approved') lane.approved.push(chargeId);
}

/** A due-date charge paid before its due date (one of two discounts) or after it (fine and interest). */
export async function dueDateCharge(driver: Driver, lane: Lane, when: 'early' | 'late'): Promise<void> {
  const today = saoPauloDate(new Date());
  // From tomorrow on, so that a campaign running over midnight (São Paulo) pays no day before the charge's own.
  const dueDate = addDays(today, when === 'early' ? randomInt(2, 9) : randomInt(1, 3));
  const terms: DueTerms = {
    amountCents: Math.round(reais(20, 300) * 100),
    dueDate,
    earlyUntil: when === 'early' ? addDays(today, 1) : null,
  };
  const { coverFee: _, ...charge } = driver.chargeBody(lane.peer);
  const { body } = await driver.keyedPost(lane.main, '/transactions', {
    ...charge,
    amount: terms.amountCents / 100,
    ...dueDateBody(terms),
  });
  const chargeId: string = body.data.id;
  if (when === 'late' && Math.random() < 0.3) {
    const tooLate = addDays(dueDate, VALIDITY_AFTER_DUE + 1);
    const refused = await driver.admin('POST', `/simulator/charges/${chargeId}/pay`, { paidOn: tooLate });
    if (refused.status !== 409 || refused.body?.error?.code !== 'payment_after_validity')
      throw new Unexpected(`pay ${chargeId} on ${tooLate}, past its validity, answered ${errorOf(refused)}`);
  }
  const paidOn = when === 'early' ? addDays(today, randomInt(1, daysBetween(today, dueDate) + 1)) : addDays(dueDate, randomInt(1, 16));
  await pay(driver, chargeId, paidOn);
  driver.expect({ transactionId: chargeId, status: 'approved', paidCents: amountDue(terms, paidOn), why: `paid ${when} on ${paidOn}` });
  await approved(driver, lane, chargeId);
}

/** The recurrence's status in the read model. */
async function recurrenceStatus(driver: Driver, recurrenceId: string): Promise<string | undefined> {
  const rows = await driver.settled(() => driver.sql<{ status: string }[]>`select status from recurrences where id = ${recurrenceId}`);
  return rows?.[0]?.status;
}

/** A payer's or merchant's change; a 409 invalid_recurrence_status is fine when an earlier attempt already made it. */
async function change(driver: Driver, what: string, recurrenceId: string, answer: Answer, status: string): Promise<void> {
  const madeBefore = answer.status === 409 && answer.body?.error?.code === 'invalid_recurrence_status';
  if (answer.status !== 200 && !(madeBefore && (await recurrenceStatus(driver, recurrenceId)) === status))
    throw new Unexpected(`${what} of ${recurrenceId} answered ${errorOf(answer)}`);
}

/**
 * A monthly recurrence authorized by the payer; its first cycle, created at once inside the lead
 * window, debited by the payer's bank (or declined, then failed: no retry policy); then, half of the
 * time, cancelled by the merchant.
 */
export async function recurrenceCycle(driver: Driver, lane: Lane): Promise<void> {
  const amountCents = Math.round(reais(10, 200) * 100);
  const created = await driver.api(
    lane.main,
    'POST',
    '/recurrences',
    {
      payer: { name: 'Assinante Caos da Silva', document: generateCpf() },
      contract: `CTR-CAOS-${randomBytes(4).toString('hex')}`,
      description: 'Assinatura caos',
      frequency: 'monthly',
      firstDueDate: addDays(saoPauloDate(new Date()), randomInt(4, 8)),
      amount: amountCents / 100,
    },
    { 'Idempotency-Key': newKey('rec') },
  );
  if (created.status !== 201 && created.status !== 200) throw new Unexpected(`recurrence creation answered ${errorOf(created)}`);
  const recurrenceId: string = created.body.data.id;
  await change(driver, 'authorize', recurrenceId, await driver.admin('POST', `/simulator/recurrences/${recurrenceId}/authorize`), 'active');

  const cycleId = await driver.settled(async () => {
    const [cycle] = await driver.sql<{ id: string }[]>`
      select t.id from transactions t join simulator_charges s on s.transaction_id = t.id where t.recurrence_id = ${recurrenceId}`;
    return cycle?.id;
  });
  if (!cycleId) throw new Unexpected(`recurrence ${recurrenceId}: no cycle charge at the network after its authorization`);
  if (Math.random() < 0.25) {
    const declined = await driver.admin('POST', `/simulator/charges/${cycleId}/decline`);
    if (declined.status !== 200 && !(declined.status === 409 && declined.body?.error?.code === 'attempt_already_declined'))
      throw new Unexpected(`decline ${cycleId} answered ${errorOf(declined)}`);
    driver.expect({ transactionId: cycleId, status: 'failed', why: 'its debit was declined (no retry policy)' });
    await driver.finalStatus(cycleId);
  } else {
    await pay(driver, cycleId);
    driver.expect({ transactionId: cycleId, status: 'approved', paidCents: amountCents, why: 'the payer bank debited it' });
    await approved(driver, lane, cycleId);
  }

  const cancel = Math.random() < 0.5;
  if (cancel)
    await change(driver, 'cancel', recurrenceId, await driver.api(lane.main, 'DELETE', `/recurrences/${recurrenceId}`), 'cancelled');
  driver.expect({ recurrenceId, status: cancel ? 'cancelled' : 'active', why: cancel ? 'the merchant cancelled it' : 'authorized' });
}
