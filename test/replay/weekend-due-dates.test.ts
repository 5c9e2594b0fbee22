// Two committed runs of a Saturday due date, held to today's calendar-day rules. Replay compares a run's
// commands, not the days and amounts they carried, so this test reads those from the histories (decrypted
// with the TEST-ONLY keys): a due-date charge due on a Saturday and paid on the Monday after was paid what
// amountDueOn asks that Monday, the fine and two days' interest, the weekend giving no grace; a cycle due on a
// Saturday, declined there, was attempted again by the payer's bank on the days retryDay names, the Sunday
// first. A rule moved to business days fails here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import type { ChargeWorkflowInput, ConfirmedCharge } from '../../src/charges/contract.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { retryDay } from '../../src/recurrences/contract.js';
import { amountDueOn } from '../../src/domain/amount-due.js';
import { AesGcmPayloadCodec } from '../../src/temporal/codec/aes-gcm-codec.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');
const codec = new AesGcmPayloadCodec(testPayloadKeys());
const SUNDAY = 0;
const SATURDAY = 6;

type Event = temporal.api.history.v1.IHistoryEvent;

const eventsOf = (file: string): Event[] =>
  temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8'))).events;

async function decoded<T>(payload: temporal.api.common.v1.IPayload): Promise<T> {
  const [plain] = await codec.decode([payload]);
  return defaultPayloadConverter.fromPayload<T>(plain!);
}

const startInput = (events: Event[]) =>
  decoded<ChargeWorkflowInput>(events[0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!);
const dayOf = (event: Event): string => saoPauloDate(new Date(Number(event.eventTime!.seconds) * 1000));
const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay();

describe('a Saturday due date, by calendar days', () => {
  it('a due-date charge paid on the Monday after was paid the fine and two days of interest, as amountDueOn asks', async () => {
    const events = eventsOf('due-date-charge-psp-continue-as-new-run-2-encrypted.json');
    const { asked } = (await startInput(events)).draft;
    const charge = { ...asked!.due!, amountCents: asked!.amountCents };
    const answers = await Promise.all(
      events.flatMap((e) =>
        e.activityTaskCompletedEventAttributes
          ? [decoded<ConfirmedCharge>(e.activityTaskCompletedEventAttributes.result!.payloads![0]!)]
          : [],
      ),
    );
    const paid = answers.map(({ state }) => state).find((state) => state.status === 'paid');
    expect(paid).toBeDefined();
    const paidOn = saoPauloDate(new Date(paid!.paidAt));
    expect(weekdayOf(charge.dueDate)).toBe(SATURDAY);
    expect(paidOn).toBe(addDays(charge.dueDate, 2));
    expect(paid!.amountCents).toBe(amountDueOn(charge, paidOn));
    expect(paid!.amountCents).toBeGreaterThan(amountDueOn(charge, charge.dueDate));
  });

  it('a cycle declined on it was attempted again on the days retryDay names, the Sunday first', async () => {
    const events = eventsOf('recurrence-cycle-retried-across-continue-as-new-encrypted.json');
    const { dueDate } = (await startInput(events)).draft.asked!.due!;
    // The payer's bank's attempts, each told to the workflow: three declines, then the payment.
    const attempts = events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'paymentNotified').map(dayOf);
    expect(weekdayOf(dueDate)).toBe(SATURDAY);
    expect(attempts).toHaveLength(4);
    expect(attempts[0]).toBe(dueDate);
    expect(weekdayOf(attempts[1]!)).toBe(SUNDAY);
    expect(attempts.slice(1)).toEqual(attempts.slice(0, -1).map((declinedOn, i) => retryDay(dueDate, i + 1, declinedOn)));
  });
});
