// Replays every recorded history (test/replay/histories/*.json, written by `npm run record-history`)
// against today's workflow code: a change that breaks determinism fails here. The replaying worker has the
// payload codec with the TEST-ONLY keys the *-encrypted histories were recorded under; the older
// histories, recorded before encryption, replay through it in clear, and so do the messages in clear of
// the forged runs recorded after REFUSE_UNENCRYPTED_INPUT (patches.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { encryptingDataConverter } from '../../src/temporal/codec/data-converter.js';
import { REFUSE_UNENCRYPTED_INPUT } from '../../contracts/payload-encryption.contract.js';
import { encodingOf, historyPayloads, isCoreMarkerData } from '../helpers/history-payloads.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');
/** Where a start's input, a signal's or an update's arguments are stored in a history. */
const FORGED_MESSAGE =
  /^\/(workflowExecutionStartedEventAttributes\/input|workflowExecutionSignaledEventAttributes\/input|workflowExecutionUpdateAcceptedEventAttributes\/acceptedRequest\/input\/args)\/payloads\/0$/;
const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const historyOf = (file: string) => JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8'));

describe('workflow replay', () => {
  beforeAll(() => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  });

  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it('has a recorded history of every workflow type the worker registers', async () => {
    // The worker's bundle registers every export of workflows/index.ts as a workflow type.
    const registered = Object.keys(await import('../../workflows/index.js')).sort();
    const recorded = new Set(
      files.map(
        (file) =>
          JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')).events[0].workflowExecutionStartedEventAttributes.workflowType
            .name as string,
      ),
    );
    expect(registered.length).toBeGreaterThan(0);
    expect(
      registered.filter((type) => !recorded.has(type)),
      'workflow types without a committed history (npm run record-history)',
    ).toEqual([]);
  });

  it('has runs that continued as new, each beside the run it continued as', () => {
    // Charges (a due-date charge's week of polls) and recurrences (CYCLES_PER_RUN cycles) continue as new:
    // a change to what a run hands to the next must replay on both sides of it.
    const runs = files.map((file) => ({ file, events: historyOf(file).events }));
    const started = ({ events }: (typeof runs)[number]) => events[0].workflowExecutionStartedEventAttributes;
    const continued = runs.filter(({ events }) => events.at(-1).eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    expect(new Set(continued.map((run) => started(run).workflowType.name))).toEqual(new Set(['chargeWorkflow', 'recurrenceWorkflow']));
    for (const run of continued) {
      const { newExecutionRunId } = run.events.at(-1).workflowExecutionContinuedAsNewEventAttributes;
      const next = runs.filter((other) => started(other).originalExecutionRunId === newExecutionRunId);
      expect(
        next.map((other) => other.file),
        run.file,
      ).toHaveLength(1);
      expect(started(next[0]!).continuedExecutionRunId, run.file).toBe(started(run).originalExecutionRunId);
    }
  });

  it('has encrypted histories whose every payload is ciphertext under the test key', () => {
    const recorded = files.filter((f) => f.endsWith('-encrypted.json'));
    expect(recorded).toEqual(expect.arrayContaining(['charge-paid-encrypted.json', 'transfer-approved-encrypted.json']));
    for (const file of recorded) {
      const payloads = historyPayloads(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')));
      expect(payloads.length, file).toBeGreaterThan(0);
      const encrypted = payloads.filter((p) => encodingOf(p) === 'binary/encrypted');
      const clear = payloads.filter((p) => encodingOf(p) !== 'binary/encrypted' && !isCoreMarkerData(p));
      if (file.includes(`-${REFUSE_UNENCRYPTED_INPUT}-`)) {
        // A forged run holds the forged message as it was sent, in clear, and only that in clear (a refused start, nothing else).
        expect(
          clear.map((p) => p.path.replace(/\/events\/\d+/, '')),
          file,
        ).toEqual([expect.stringMatching(FORGED_MESSAGE)]);
      } else {
        expect(encrypted.length, file).toBeGreaterThan(0);
        expect(clear, file).toEqual([]);
      }
      expect(new Set(encrypted.map((p) => p.metadata['encryption-key-id']?.toString())), file).toEqual(
        new Set(encrypted.length ? [testPayloadKeys().current] : []),
      );
    }
  });

  it('replays every recorded history without nondeterminism', async () => {
    // Decoded with @temporalio/proto directly: the SDK's own JSON reader (proto-utils) trips over the
    // two protobufjs copies this install holds ("type must be a Type").
    const histories = files.map((file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8'))),
    }));
    const outcomes: Array<{ workflowId: string; error: string | null }> = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { codePath: inject('workflowBundlePath') }, dataConverter: encryptingDataConverter(testPayloadKeys()) },
      histories,
    )) {
      outcomes.push({ workflowId: result.workflowId, error: result.error ? `${result.error.name}: ${result.error.message}` : null });
    }
    expect(outcomes).toEqual(files.map((file) => ({ workflowId: file.replace(/\.json$/, ''), error: null })));
  });
});
