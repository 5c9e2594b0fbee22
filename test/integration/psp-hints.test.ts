// The PSP webhook hints' processor against the real PostgreSQL and Temporal: what each stored name
// wakes, one signal per name per interval, two processors that never act on one row twice, rows a dead
// processor held taken up by the next, and hints kept through a Temporal outage. The workflows signalled
// here run on a task queue no worker polls: their histories only record what reached them.
import { randomBytes } from 'node:crypto';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Deps } from '../../src/runtime/deps.js';
import { connect, type Sql } from '../../src/db/database.js';
import { createLogger } from '../../src/runtime/log.js';
import { refreshPspHintGauges } from '../../src/metrics/psp-hints.js';
import { pspHintsOldestAge, pspHintsPending } from '../../src/metrics/registry.js';
import { processDueHints, type HintBatch } from '../../src/psp-webhooks/hint-processor.js';
import { recordHints, type PixHints } from '../../src/psp-webhooks/hints.js';
import { connectClient } from '../../src/temporal/connection.js';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { medReturnsWorkflowId } from '../../src/meds/returns.contract.js';
import { refundWorkflowId } from '../../src/refunds/contract.js';
import { transferWorkflowId } from '../../src/transfers/contract.js';
import { eventually } from '../helpers/eventually.js';
import { migratedDatabase } from '../helpers/migrated-database.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';
import { freePort } from '../../src/runtime/free-port.js';
import { tcpRelay } from '../helpers/tcp-relay.js';
import { insertAccountRow, insertTransactionRow } from '../helpers/transaction-rows.js';

const hex = () => randomBytes(8).toString('hex');
const IDLE_QUEUE = `psp-hints-idle-${hex()}`;

let databaseUrl: string;
let sql: Sql;
let temporal: Client;
let accountId: string;

beforeAll(async () => {
  ({ url: databaseUrl, sql } = await migratedDatabase());
  temporal = await connectClient({ address: inject('temporalAddress') }, 'default', testPayloadKeys());
  accountId = await insertAccountRow(sql);
});

afterAll(async () => {
  await temporal?.connection.close();
  await sql?.end({ timeout: 5 });
});

/** What a processor of the engine holds, with PSP_WEBHOOK_HINT_INTERVAL_MS = `intervalMs`. */
function processorDeps(intervalMs: number, options: { sql?: Sql; temporal?: Client } = {}): Deps {
  return {
    config: { pspWebhookHintIntervalMs: intervalMs, temporalTaskQueue: IDLE_QUEUE },
    log: createLogger('silent'),
    sql: options.sql ?? sql,
    temporal: options.temporal ?? temporal,
  } as unknown as Deps;
}

const hints = (named: Partial<PixHints>): PixHints => ({ chargeIds: [], transferIds: [], endToEndIds: [], ignored: 0, ...named });

/** A pending charge or transfer row and its workflow, running on the idle queue. */
async function waitingTransaction(kind: 'charge' | 'transfer' = 'charge'): Promise<{ id: string; handle: WorkflowHandle }> {
  const externalId = `ext-${hex()}`;
  const id = await insertTransactionRow(sql, accountId, { kind, externalId });
  const workflowId = (kind === 'charge' ? chargeWorkflowId : transferWorkflowId)(accountId, externalId);
  const handle = await temporal.workflow.start('idleWorkflow', { workflowId, taskQueue: IDLE_QUEUE });
  return { id, handle };
}

async function signalsIn(handle: WorkflowHandle): Promise<string[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).flatMap((event) =>
    event.workflowExecutionSignaledEventAttributes ? [event.workflowExecutionSignaledEventAttributes.signalName!] : [],
  );
}

/** Batches until none is due. */
async function drain(deps: Deps): Promise<HintBatch[]> {
  const batches: HintBatch[] = [];
  for (let batch = await processDueHints(deps); batch; batch = await processDueHints(deps)) batches.push(batch);
  return batches;
}

const total = (batches: HintBatch[], count: 'hints' | 'signalled' | 'coalesced' | 'undelivered') =>
  batches.reduce((sum, batch) => sum + batch[count], 0);

async function gauges(): Promise<{ pending: number; oldestAge: number }> {
  await refreshPspHintGauges(sql);
  return { pending: (await pspHintsPending.get()).values[0]!.value, oldestAge: (await pspHintsOldestAge.get()).values[0]!.value };
}

/** Rows of the names given still in the table: pending (not acted on) or not. */
async function rowsOf(names: string[]): Promise<Array<{ name: string; pending: boolean; attempts: number; due: boolean }>> {
  return sql`
    select name, signalled_at is null as pending, attempts, next_attempt_at <= now() as due
    from psp_hints where name = any(${names}::text[]) order by id`;
}

describe('the PSP webhook hints processor', () => {
  it('signals the charge and the transfer named, starts the MED check of the Pix of an approved charge, and forgets the rest', async () => {
    const charge = await waitingTransaction('charge');
    const transfer = await waitingTransaction('transfer');
    const finished = await waitingTransaction('charge');
    await finished.handle.terminate('settled');
    const paidPix = `E${hex()}${hex()}`;
    const unpaidPix = `E${hex()}${hex()}`;
    const approved = await insertTransactionRow(sql, accountId, { status: 'approved' });
    const pending = await insertTransactionRow(sql, accountId);
    await sql`update transactions set acquirer = 'psp', end_to_end_id = case id when ${approved} then ${paidPix} else ${unpaidPix} end where id in (${approved}, ${pending})`;
    const unknownCharge = `txn_${hex()}`;

    await recordHints(
      sql,
      'psp',
      hints({ chargeIds: [charge.id, unknownCharge, finished.id], transferIds: [transfer.id], endToEndIds: [paidPix, unpaidPix] }),
    );
    const batches = await drain(processorDeps(0));
    expect(batches).toEqual([{ hints: 6, signalled: 2, coalesced: 0, unknown: 1, finished: 1, medChecks: 1, undelivered: 0 }]);
    expect(await signalsIn(charge.handle)).toEqual(['paymentNotified']);
    expect(await signalsIn(transfer.handle)).toEqual(['networkAnswered']);
    expect((await temporal.workflow.getHandle(medReturnsWorkflowId('psp', paidPix)).describe()).status.name).toBe('RUNNING');
    expect(await rowsOf([charge.id, transfer.id, finished.id, unknownCharge, paidPix, unpaidPix])).toEqual([]);
  });

  it("a Pix named signals its charge's pending refunds on the route, besides its MED check; settled ones and another route's are left alone", async () => {
    const paidPix = `E${hex()}${hex()}`;
    const charge = await insertTransactionRow(sql, accountId, { status: 'approved' });
    await sql`update transactions set acquirer = 'psp', end_to_end_id = ${paidPix} where id = ${charge}`;
    const refund = async (status: 'pending' | 'approved', route = 'psp') => {
      const key = `rfd-key-${hex()}`;
      await sql`
        insert into refunds (id, account_id, transaction_id, idempotency_key, fingerprint, route, amount, status, settled_at)
        values (${`rfd_${hex()}${hex().slice(0, 8)}`}, ${accountId}, ${charge}, ${key}, ${hex()}, ${route}, 100, ${status},
                ${status === 'pending' ? null : new Date()})`;
      return temporal.workflow.start('idleWorkflow', { workflowId: refundWorkflowId(accountId, key), taskQueue: IDLE_QUEUE });
    };
    const [first, second, settled, elsewhere] = [
      await refund('pending'),
      await refund('pending'),
      await refund('approved'),
      await refund('pending', 'other'),
    ];

    await recordHints(sql, 'psp', hints({ endToEndIds: [paidPix] }));
    expect(await drain(processorDeps(0))).toEqual([
      { hints: 1, signalled: 2, coalesced: 0, unknown: 0, finished: 0, medChecks: 1, undelivered: 0 },
    ]);
    expect(await signalsIn(first)).toEqual(['networkAnswered']);
    expect(await signalsIn(second)).toEqual(['networkAnswered']);
    expect(await signalsIn(settled)).toEqual([]);
    expect(await signalsIn(elsewhere)).toEqual([]);
    expect((await temporal.workflow.getHandle(medReturnsWorkflowId('psp', paidPix)).describe()).status.name).toBe('RUNNING');
  });

  it('one signal per name per interval: the hints that come within it wait in the table and become one signal at its end', async () => {
    const deps = processorDeps(1500);
    const charge = await waitingTransaction();
    for (let i = 0; i < 3; i++) await recordHints(sql, 'psp', hints({ chargeIds: [charge.id] }));
    expect(await drain(deps)).toEqual([{ hints: 3, signalled: 1, coalesced: 2, unknown: 0, finished: 0, medChecks: 0, undelivered: 0 }]);
    expect(await signalsIn(charge.handle)).toEqual(['paymentNotified']);

    for (let i = 0; i < 2; i++) await recordHints(sql, 'psp', hints({ chargeIds: [charge.id] }));
    expect(await drain(deps)).toEqual([{ hints: 2, signalled: 0, coalesced: 2, unknown: 0, finished: 0, medChecks: 0, undelivered: 0 }]);
    expect(await drain(deps)).toEqual([]);
    expect((await rowsOf([charge.id])).filter((row) => row.pending)).toEqual([
      { name: charge.id, pending: true, attempts: 0, due: false },
      { name: charge.id, pending: true, attempts: 0, due: false },
    ]);
    expect(await signalsIn(charge.handle)).toEqual(['paymentNotified']);
    const waiting = await gauges();
    expect(waiting.pending).toBe(2);
    expect(waiting.oldestAge).toBeGreaterThan(0);

    const trailing = await eventually(async () => (await drain(deps)).find((batch) => batch.hints > 0), 20_000, 100);
    expect(trailing).toEqual({ hints: 2, signalled: 1, coalesced: 1, unknown: 0, finished: 0, medChecks: 0, undelivered: 0 });
    expect(await signalsIn(charge.handle)).toEqual(['paymentNotified', 'paymentNotified']);
    expect((await rowsOf([charge.id])).filter((row) => row.pending)).toEqual([]);
  });

  it('a flood of hints for one name leaves the table with its one signal, however many batches it spans', async () => {
    const charge = await waitingTransaction();
    await recordHints(sql, 'psp', hints({ chargeIds: Array.from({ length: 250 }, () => charge.id) }));
    expect(await drain(processorDeps(60_000))).toEqual([
      { hints: 250, signalled: 1, coalesced: 249, unknown: 0, finished: 0, medChecks: 0, undelivered: 0 },
    ]);
    expect(await signalsIn(charge.handle)).toEqual(['paymentNotified']);
    expect((await rowsOf([charge.id])).filter((row) => row.pending)).toEqual([]);
  });

  it('two processors draining at once each take rows the other does not hold: every row acted on once', async () => {
    const charges = await Promise.all(Array.from({ length: 150 }, () => waitingTransaction()));
    await recordHints(sql, 'psp', hints({ chargeIds: charges.slice(0, 75).map((c) => c.id) }));
    await recordHints(sql, 'psp', hints({ chargeIds: charges.slice(75).map((c) => c.id) }));
    const pools = [connect(databaseUrl, { max: 2 }), connect(databaseUrl, { max: 2 })];
    try {
      const [first, second] = await Promise.all(pools.map((pool) => drain(processorDeps(60_000, { sql: pool }))));
      expect(total(first!, 'hints') + total(second!, 'hints')).toBe(150);
      expect(total(first!, 'signalled') + total(second!, 'signalled')).toBe(150);
      expect(Math.min(total(first!, 'hints'), total(second!, 'hints'))).toBeGreaterThan(0);
    } finally {
      await Promise.all(pools.map((pool) => pool.end({ timeout: 5 })));
    }
    const signalled = await Promise.all(charges.map(({ handle }) => signalsIn(handle)));
    expect(signalled.filter((signals) => signals.length !== 1)).toEqual([]);
  });

  it('rows a processor holds are skipped, not waited for, and taken by the next processor as soon as the holder dies', async () => {
    const [held, free] = [await waitingTransaction(), await waitingTransaction()];
    await recordHints(sql, 'psp', hints({ chargeIds: [held.id] }));
    // A processor in the middle of its batch: the row locked in a transaction still open.
    const holder = await sql.reserve();
    await holder`begin`;
    const pid = (await holder<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
    await holder`select id from psp_hints where name = ${held.id} for update`;
    await recordHints(sql, 'psp', hints({ chargeIds: [free.id] }));

    expect(total(await drain(processorDeps(0)), 'signalled')).toBe(1);
    expect(await signalsIn(free.handle)).toEqual(['paymentNotified']);
    expect(await signalsIn(held.handle)).toEqual([]);

    await sql`select pg_terminate_backend(${pid})`;
    holder.release();
    await eventually(async () => (await sql`select 1 from pg_stat_activity where pid = ${pid}`).length === 0);
    expect(total(await drain(processorDeps(0)), 'signalled')).toBe(1);
    expect(await signalsIn(held.handle)).toEqual(['paymentNotified']);
    expect(await rowsOf([held.id, free.id])).toEqual([]);
  });

  describe('while Temporal is unreachable', () => {
    let relay: ReturnType<typeof tcpRelay>;
    let throughRelay: Client;

    beforeAll(async () => {
      const port = await freePort();
      relay = tcpRelay(port, inject('temporalAddress'));
      await relay.open();
      throughRelay = await connectClient({ address: `127.0.0.1:${port}` }, 'default', testPayloadKeys());
    });

    afterAll(async () => {
      await throughRelay?.connection.close();
      await relay?.cut();
    });

    it('keeps the hints, retries them with backoff, and signals once Temporal is back', async () => {
      const deps = processorDeps(0, { temporal: throughRelay });
      const charge = await waitingTransaction();
      await recordHints(sql, 'psp', hints({ chargeIds: [charge.id] }));
      await relay.cut();

      const refused = await drain(deps);
      expect(refused).toEqual([
        {
          hints: 1,
          signalled: 0,
          coalesced: 0,
          unknown: 0,
          finished: 0,
          medChecks: 0,
          undelivered: 1,
          undeliveredError: expect.any(Error),
        },
      ]);
      expect(await rowsOf([charge.id])).toEqual([{ name: charge.id, pending: true, attempts: 1, due: false }]);
      expect((await gauges()).pending).toBe(1);
      expect(await drain(deps)).toEqual([]);

      await relay.open();
      const delivered = await eventually(async () => (await drain(deps)).find((batch) => batch.signalled > 0), 60_000, 200);
      expect(delivered).toMatchObject({ hints: 1, signalled: 1, undelivered: 0 });
      expect(await signalsIn(charge.handle)).toEqual(['paymentNotified']);
      expect(await rowsOf([charge.id])).toEqual([]);
    }, 90_000);
  });
});
