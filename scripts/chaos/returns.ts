// Money going back to payers: refunds (devoluções an operator asks for, settled by the simulated
// network) and MEDs (opened by the payer's institution, decided by the operator), on the lane's
// approved charges, whole or in part, one after the other on the same charges; and both on one fresh
// charge at once, so that a charge returned twice (by a refund and by a MED) shows in the checks.
import { randomInt } from 'node:crypto';
import type { Answer } from './client.js';
import { errorOf, newKey, reais, Unexpected, type Driver, type Lane } from './driver.js';
import { readBalance } from '../../src/ledger/balance.js';

const APPROVE_SHARE = 0.75;

const accepted = (answer: Answer) => answer.status === 201 || answer.status === 200;
const refused = (answer: Answer) => answer.status === 422 && answer.body?.error?.code === 'operation_refused';

/** An approved charge of the lane with something left to return, and what is left; null when there is none. */
async function returnableCharge(driver: Driver, lane: Lane): Promise<{ id: string; remainingCents: number } | null> {
  while (lane.approved.length > 0) {
    const index = randomInt(lane.approved.length);
    const id = lane.approved[index]!;
    const [row] = (await driver.settled(
      () => driver.sql<{ status: string; remaining: bigint }[]>`
        select status, coalesce(paid_amount, amount) - refunded_amount as remaining from transactions where id = ${id}`,
    ))!;
    if (row?.status === 'approved' && row.remaining > 0n) return { id, remainingCents: Number(row.remaining) };
    lane.approved.splice(index, 1);
  }
  return null;
}

/** The lane's charge to return money of: one with something left, else a new one paid now. */
async function chargeToReturn(driver: Driver, lane: Lane): Promise<{ id: string; remainingCents: number } | null> {
  const found = await returnableCharge(driver, lane);
  if (found) return found;
  const id = await driver.paidCharge(lane);
  return id ? returnableCharge(driver, lane) : null;
}

const availableCents = async (driver: Driver, accountId: string) =>
  (await driver.settled(() => readBalance(driver.sql, accountId)))!.availableCents;

function askRefund(driver: Driver, chargeId: string, amountCents?: number): Promise<Answer> {
  const body = { ...(amountCents === undefined ? {} : { amount: amountCents / 100 }), reason: 'Devolução caos' };
  return driver.admin('POST', `/transactions/${chargeId}/refunds`, body, { headers: { 'Idempotency-Key': newKey('r') } });
}

function askMed(driver: Driver, chargeId: string, amountCents?: number): Promise<Answer> {
  const body = { transactionId: chargeId, ...(amountCents === undefined ? {} : { amount: amountCents / 100 }), reason: 'fraud' };
  return driver.admin('POST', '/simulator/meds', body, { headers: { 'Idempotency-Key': newKey('m') } });
}

/** The network settles the refund; the outcome it has is what the engine must end with. */
async function completeRefund(driver: Driver, refundId: string, outcome: 'approved' | 'failed'): Promise<void> {
  const notAtNetworkYet = (a: Answer) => a.status === 409 && /ainda não chegou/.test(a.body?.error?.message ?? '');
  const completed = await driver.admin('POST', `/simulator/refunds/${refundId}/complete`, { outcome }, { retryIf: notAtNetworkYet });
  if (completed.status === 200) {
    driver.expect({ refundId, status: outcome, why: `the network ${outcome} it` });
    return;
  }
  // An earlier attempt whose answer was lost: the network says what it has.
  const decided = completed.status === 409 ? /\((approved|failed)\)/.exec(completed.body?.error?.message ?? '')?.[1] : undefined;
  if (!decided) throw new Unexpected(`complete refund ${refundId} answered ${errorOf(completed)}`);
  driver.expect({ refundId, status: decided, why: `the network had ${decided} it` });
}

async function decideMed(driver: Driver, medId: string, outcome: 'accepted' | 'rejected'): Promise<void> {
  const decided = await driver.admin('POST', `/meds/${medId}/decision`, { outcome });
  if (decided.status !== 200) throw new Unexpected(`decision ${outcome} of ${medId} answered ${errorOf(decided)}`);
  driver.expect({ medId, status: outcome, why: `decided ${outcome}` });
}

/** A refund of all or half of what is left of a charge; refused only when the available balance does not cover it. */
export async function refund(driver: Driver, lane: Lane): Promise<void> {
  const charge = await chargeToReturn(driver, lane);
  if (!charge) return;
  const partial = Math.random() < 0.5 ? Math.max(1, Math.floor(charge.remainingCents / 2)) : undefined;
  const available = await availableCents(driver, lane.main.id);
  const created = await askRefund(driver, charge.id, partial);
  if (refused(created) && available < (partial ?? charge.remainingCents)) return;
  if (!accepted(created)) throw new Unexpected(`refund of ${charge.id} (${available} available) answered ${errorOf(created)}`);
  await completeRefund(driver, created.body.data.id, Math.random() < APPROVE_SHARE ? 'approved' : 'failed');
}

/** A MED on all or half of what is left of a charge, accepted or rejected. */
export async function med(driver: Driver, lane: Lane): Promise<void> {
  const charge = await chargeToReturn(driver, lane);
  if (!charge) return;
  const partial = Math.random() < 0.4 ? Math.max(1, Math.floor(charge.remainingCents / 2)) : undefined;
  const opened = await askMed(driver, charge.id, partial);
  if (!accepted(opened)) throw new Unexpected(`MED on ${charge.id} answered ${errorOf(opened)}`);
  await decideMed(driver, opened.body.data.id, Math.random() < 0.5 ? 'accepted' : 'rejected');
}

const ORDERS = ['at once', 'refund first', 'MED first'] as const;

/**
 * A whole refund and a whole MED of one fresh charge, asked at once or one while the other is pending,
 * then approved and accepted at once. The engine may refuse either (422); what it accepts must never
 * return more than was paid. The charge is small, so that the account's balance could cover both
 * and only the rule against returning a Pix twice stands in the way.
 */
export async function refundAndMed(driver: Driver, lane: Lane): Promise<void> {
  const chargeId = await driver.paidCharge(lane, reais(5, 20));
  if (!chargeId) return;
  const order = ORDERS[randomInt(ORDERS.length)]!;
  let refundAnswer: Answer;
  let medAnswer: Answer;
  if (order === 'at once') [refundAnswer, medAnswer] = await Promise.all([askRefund(driver, chargeId), askMed(driver, chargeId)]);
  else if (order === 'refund first') {
    refundAnswer = await askRefund(driver, chargeId);
    medAnswer = await askMed(driver, chargeId);
  } else {
    medAnswer = await askMed(driver, chargeId);
    refundAnswer = await askRefund(driver, chargeId);
  }
  for (const [what, answer] of [
    ['refund', refundAnswer],
    ['MED', medAnswer],
  ] as const) {
    if (!accepted(answer) && !refused(answer)) throw new Unexpected(`${what} of ${chargeId} (${order}) answered ${errorOf(answer)}`);
  }
  await Promise.all([
    accepted(refundAnswer) ? completeRefund(driver, refundAnswer.body.data.id, 'approved') : undefined,
    accepted(medAnswer) ? decideMed(driver, medAnswer.body.data.id, 'accepted') : undefined,
  ]);
}
