// The PSP webhook hints' processor: the outbox side of the listener (books.md). The listener stores the
// names of each body in psp_hints before answering 200 (hints.ts); this loop, in every engine process
// that runs the listener, takes the due rows and wakes their workflows (wake.ts). It acts when this
// process's listener stored hints, and every SWEEP_MS for the rest: rows another process left when it
// died, retries, and the ends of coalescing windows. A hint is therefore delayed by a crash after the
// 200, never lost. Signalling twice is harmless (the workflows confirm with the route); losing one is not.
//
// At most one signal per name per PSP_WEBHOOK_HINT_INTERVAL_MS. Each signal is an event in the
// workflow's history, whose signal budget (10,000 per run in Temporal) a PSP repeating itself, or anyone
// who can post to the listener, would otherwise spend: the workflow then loses every later webhook and
// settles by polling only. Hints for a name acted on less than the interval ago wait in the table for
// the interval's end and then become one signal; all the hints stored for a name acted on, one too.
import type { TxSql } from '../db/database.js';
import type { Deps } from '../runtime/deps.js';
import type { Logger } from '../runtime/log.js';
import type { HintKind } from './hints.js';
import { wake, type HintName, type WakeOutcome } from './wake.js';

/** Due rows taken per transaction. */
const HINT_BATCH = 100;
const SWEEP_MS = 1000;
/** The longest wait between two attempts of a hint Temporal refused, and after a failed read. */
const MAX_RETRY_SECONDS = 30;

interface TakenRow {
  id: string;
  route: string;
  kind: HintKind;
  name: string;
  /** A hint for this name was acted on less than the interval ago. */
  in_window: boolean;
}

/** What one batch came to, for its log line. */
export interface HintBatch {
  /** Rows taken: HINT_BATCH at most, and the other hints of the names acted on. */
  hints: number;
  /** Signals sent: one per charge or transfer named, one per pending refund of a Pix named. */
  signalled: number;
  /** Rows that sent no signal of their own: folded into another row's of the batch, or waiting for the end of their name's window. */
  coalesced: number;
  /** Charges and transfers named that the engine does not have. */
  unknown: number;
  /** Names whose workflow had ended: nothing left to wake. */
  finished: number;
  medChecks: number;
  /** Names whose signal Temporal refused: their rows stay, retried with backoff. */
  undelivered: number;
  undeliveredError?: unknown;
}

export interface HintProcessor {
  /** Hints were stored: act on them now. */
  wake(): void;
  /** Finishes the batch under way and stops. */
  stop(): Promise<void>;
}

/** Takes up to HINT_BATCH due hints (rows other processors hold are skipped) and acts on them; null when none was due. */
export async function processDueHints(deps: Deps): Promise<HintBatch | null> {
  const interval = deps.config.pspWebhookHintIntervalMs;
  return deps.sql.begin(async (tx) => {
    const rows = await tx<TakenRow[]>`
      select h.id::text as id, h.route, h.kind, h.name,
             exists (select 1 from psp_hints s
                      where (s.route, s.kind, s.name) = (h.route, h.kind, h.name)
                        and s.signalled_at > now() - ${interval}::float8 * interval '1 millisecond') as in_window
        from psp_hints h
       where h.signalled_at is null and h.next_attempt_at <= now()
       order by h.next_attempt_at, h.id
       limit ${HINT_BATCH}
         for update of h skip locked`;
    if (rows.length === 0) return null;
    const waiting = rows.filter((row) => row.in_window);
    const due = rows.filter((row) => !row.in_window);
    const byName = new Map<string, TakenRow[]>();
    for (const row of [...due, ...(await otherHintsOfNames(tx, due))]) {
      const key = `${row.route} ${row.kind} ${row.name}`;
      byName.set(key, [...(byName.get(key) ?? []), row]);
    }
    const groups = [...byName.values()];
    const outcomes = await wake(
      deps,
      tx,
      groups.map((group): HintName => ({ route: group[0]!.route, kind: group[0]!.kind, name: group[0]!.name })),
    );
    const hints = waiting.length + groups.reduce((sum, group) => sum + group.length, 0);
    const batch: HintBatch = { hints, signalled: 0, coalesced: waiting.length, unknown: 0, finished: 0, medChecks: 0, undelivered: 0 };
    const ids = { acted: [] as string[], done: [] as string[], failed: [] as string[] };
    outcomes.forEach((result, i) => {
      const group = groups[i]!.map((row) => row.id);
      count(batch, result, group.length);
      if (result.outcome === 'signalled' || result.outcome === 'medCheck') ids.acted.push(...group);
      else if (result.outcome === 'failed') ids.failed.push(...group);
      else ids.done.push(...group);
    });
    await settle(
      tx,
      interval,
      ids.acted,
      ids.failed,
      waiting.map((row) => row.id),
      ids.done,
    );
    return batch;
  });
}

/**
 * The other hints stored for the names about to be acted on, whether due or not (waiting for a window's
 * end, or for a retry), except those another processor holds: the one signal covers every hint of its
 * name stored before it. Without this, a flood of hints for one name would leave the table at only
 * HINT_BATCH rows per interval.
 */
async function otherHintsOfNames(tx: TxSql, due: TakenRow[]): Promise<TakenRow[]> {
  if (due.length === 0) return [];
  return tx<TakenRow[]>`
    select id::text as id, route, kind, name, false as in_window
      from psp_hints
     where signalled_at is null and id <> all(${due.map((row) => row.id)}::bigint[])
       and (route, kind, name) in (select * from unnest(${due.map((row) => row.route)}::text[], ${due.map((row) => row.kind)}::text[], ${due.map((row) => row.name)}::text[]))
       for update skip locked`;
}

function count(batch: HintBatch, result: WakeOutcome, rows: number): void {
  switch (result.outcome) {
    case 'signalled':
      batch.signalled += 1;
      batch.coalesced += rows - 1;
      return;
    case 'medCheck':
      batch.medChecks += 1;
      batch.signalled += result.refunds;
      return;
    case 'unknown':
      batch.unknown += 1;
      return;
    case 'finished':
      batch.finished += 1;
      return;
    case 'failed':
      batch.undelivered += 1;
      batch.undeliveredError ??= result.err;
      return;
    case 'nothing':
      return;
  }
}

/**
 * Acted-on rows open their name's window; refused ones wait 1, 2, 4 … up to MAX_RETRY_SECONDS s; rows in
 * a window wait for its end; the rest, and windows that ended, are deleted.
 */
async function settle(tx: TxSql, interval: number, acted: string[], failed: string[], waiting: string[], done: string[]): Promise<void> {
  if (acted.length > 0) await tx`update psp_hints set signalled_at = now() where id = any(${acted}::bigint[])`;
  if (failed.length > 0) {
    // From now, not from the transaction's start: the refusal may have taken up to wake.ts's deadline.
    await tx`
      update psp_hints set attempts = attempts + 1, next_attempt_at = clock_timestamp() + least(${MAX_RETRY_SECONDS}, power(2, attempts)) * interval '1 second'
       where id = any(${failed}::bigint[])`;
  }
  if (waiting.length > 0) {
    // coalesce: the window may have ended, and its rows been deleted, since the rows were taken.
    await tx`
      update psp_hints h
         set next_attempt_at = coalesce((select max(s.signalled_at) from psp_hints s
                                          where (s.route, s.kind, s.name) = (h.route, h.kind, h.name) and s.signalled_at is not null)
                                        + ${interval}::float8 * interval '1 millisecond', now())
       where h.id = any(${waiting}::bigint[])`;
  }
  // Ended windows another processor is deleting too are left to it: a processor never waits for another's locks.
  await tx`
    delete from psp_hints
     where id = any(${done}::bigint[])
        or id in (select id from psp_hints where signalled_at <= now() - ${interval}::float8 * interval '1 millisecond' for update skip locked)`;
}

function logBatch(log: Logger, { undeliveredError, ...counts }: HintBatch): void {
  if (counts.undelivered > 0)
    log.warn({ ...counts, err: undeliveredError }, 'PSP webhook hints: some not delivered to their workflow; kept to retry');
  else log.info(counts, 'PSP webhook hints');
}

/** Runs the processor until `stop()`: a batch whenever hints were stored here, a full batch was taken, or SWEEP_MS passed. */
export function startHintProcessor(deps: Deps): HintProcessor {
  let stopped = false;
  let woken = false;
  /** Ends the current nap: set while napping. */
  let alarm: (() => void) | null = null;
  /** A nap after a failure is ended by stop() only, not by newly stored hints. */
  let afterFailure = false;
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      alarm = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (alarm = null));

  const running = (async () => {
    let failures = 0;
    while (!stopped) {
      woken = false;
      try {
        const batch = await processDueHints(deps);
        failures = 0;
        if (batch) logBatch(deps.log, batch);
        // Perhaps more are due (a batch with the other hints of its names may have taken fewer).
        if (batch && batch.hints >= HINT_BATCH) continue;
      } catch (err) {
        failures += 1;
        deps.log.warn({ err }, 'PSP webhook hints not processed; retrying');
      }
      afterFailure = failures > 0;
      if (!woken || afterFailure) await nap(afterFailure ? Math.min(MAX_RETRY_SECONDS * 1000, 1000 * 2 ** (failures - 1)) : SWEEP_MS);
    }
  })();

  return {
    wake: () => {
      woken = true;
      if (!afterFailure) alarm?.();
    },
    stop: async () => {
      stopped = true;
      alarm?.();
      await running;
    },
  };
}
