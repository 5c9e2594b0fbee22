// The MED workflow on the time-skipping test server, with its real activities against a real
// PostgreSQL database: the decision deadline is a durable timer that fires at exactly the configured
// time (7 days by default), alerts operators once (a warn log line and med.updated) and leaves the
// MED waiting for its decision; a decision in time cancels the alert.
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medActivities } from '../../../src/meds/activities.js';
import { webhookActivities } from '../../../activities/webhooks.js';
import { loadConfig, type Config } from '../../../src/config/config.js';
import type { Sql } from '../../../src/db/database.js';
import type { Deps } from '../../../src/runtime/deps.js';
import { customerAccount, platformAccount } from '../../../src/ledger/accounts.js';
import { readBalance } from '../../../src/ledger/balance.js';
import { post } from '../../../src/ledger/post.js';
import { createLogger } from '../../../src/runtime/log.js';
import { findMedById } from '../../../src/meds/repository.js';
import { serializeMed } from '../../../src/meds/serialize.js';
import { decideUpdate, openedUpdate, type MedChangeResult, type MedWorkflowInput } from '../../../src/meds/contract.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { migratedDatabase } from '../../helpers/migrated-database.js';
import { insertAccountRow, insertTransactionRow } from '../../helpers/transaction-rows.js';
import { timeSkippingServer } from '../../helpers/time-skipping.js';

const server = timeSkippingServer('src/meds/workflow.ts');

let sql: Sql;
let databaseUrl: string;
const logLines: any[] = [];

beforeAll(async () => {
  ({ sql, url: databaseUrl } = await migratedDatabase({ max: 4 }));
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

function deps(config: Config): Deps {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) =>
    logLines.push(
      ...chunk
        .toString()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ),
  );
  return { config, log: createLogger('info', stream), sql, temporal: server.env.client };
}

/** An approved 100.00 charge whose account holds 98.00 available. */
async function approvedCharge(): Promise<{ accountId: string; transactionId: string }> {
  const accountId = await insertAccountRow(sql);
  const transactionId = await insertTransactionRow(sql, accountId, { status: 'approved', amountCents: 10_000, feeCents: 200 });
  await sql.begin((tx) =>
    post(tx, {
      key: `charge:${transactionId}:settle`,
      transactionId,
      description: 'approved charge',
      entries: [
        { account: platformAccount('pix_clearing', transactionId), amount: -10_000 },
        { account: platformAccount('fee_revenue', transactionId), amount: 200 },
        { account: customerAccount(accountId, 'available'), amount: 9_800 },
      ],
    }),
  );
  return { accountId, transactionId };
}

interface Run {
  config: Config;
  transactionId: string;
  /** Server times (ms) of the markMedOverdue activity's calls. */
  overdueCalls: number[];
}

interface MedHandle {
  medId: string;
  decide: (o: 'accepted' | 'rejected') => Promise<MedChangeResult>;
  result: () => Promise<MedChangeResult>;
}

/** Opens a MED through its workflow (as the admin API does) and runs `scenario` while a worker serves it. */
async function withMed<T>(run: Run, scenario: (opened: MedChangeResult, handle: MedHandle, openedAtMs: number) => Promise<T>): Promise<T> {
  const real = { ...medActivities(deps(run.config)), ...webhookActivities(deps(run.config)) };
  const activities = {
    ...real,
    markMedOverdue: async (medId: string) => {
      run.overdueCalls.push(await server.env.currentTimeMs());
      return real.markMedOverdue(medId);
    },
  };
  const { worker, taskQueue } = await server.worker('med', activities);
  const medId = `med_${randomBytes(12).toString('hex')}`;
  const input: MedWorkflowInput = {
    open: {
      medId,
      transactionId: run.transactionId,
      amountCents: null,
      reason: 'fraud',
      deadlineSeconds: run.config.medDecisionDeadlineSeconds,
    },
  };
  return worker.runUntil(async () => {
    const handle = await server.env.client.workflow.start('medWorkflow', { taskQueue, workflowId: `med:${medId}`, args: [input] });
    const opened = await handle.executeUpdate(openedUpdate);
    const openedAtMs = await server.env.currentTimeMs();
    return scenario(
      opened,
      { medId, decide: (outcome) => handle.executeUpdate(decideUpdate, { args: [outcome] }), result: () => handle.result() },
      openedAtMs,
    );
  });
}

/** The MED as the admin API answers it, from the read model. */
const medOf = async (medId: string) => serializeMed((await findMedById(sql, medId))!);
const overdueFlag = async (medId: string) => (await sql<{ overdue: boolean }[]>`select overdue from meds where id = ${medId}`)[0]!.overdue;
const eventsOf = (medId: string) =>
  sql<{ id: string; type: string; payload: any }[]>`select id, type, payload from events where med_id = ${medId} order by created_at, id`;

describe('MED workflow (time-skipping)', () => {
  it('alerts operators once when the default 7-day deadline passes, then still takes the decision', async () => {
    const config = loadConfig({});
    expect(config.medDecisionDeadlineSeconds).toBe(7 * 24 * 60 * 60);
    const { accountId, transactionId } = await approvedCharge();
    const run: Run = { config, transactionId, overdueCalls: [] };
    await withMed(run, async (opened, handle, openedAtMs) => {
      if (!opened.ok) throw new Error(opened.message);
      const { medId } = handle;
      expect(opened).toEqual({ ok: true, eventIds: [`evt_${medId}_created`] });
      expect(await medOf(medId)).toMatchObject({ status: 'open', amount: 100, retainedAmount: 98, overdue: false });
      expect(await readBalance(sql, accountId)).toEqual({ availableCents: 0, reservedCents: 0, retainedCents: 9_800 });

      await server.env.sleep(config.medDecisionDeadlineSeconds * 1000 - 60_000);
      expect(await overdueFlag(medId)).toBe(false);
      await server.env.sleep(120_000);
      expect(await overdueFlag(medId)).toBe(true);
      expect(run.overdueCalls).toHaveLength(1);
      expect(run.overdueCalls[0]! - openedAtMs).toBeGreaterThanOrEqual(config.medDecisionDeadlineSeconds * 1000);
      expect(run.overdueCalls[0]! - openedAtMs).toBeLessThan(config.medDecisionDeadlineSeconds * 1000 + 5_000);
      expect(logLines.filter((l) => l.alert === 'med_decision_overdue' && l.medId === medId)).toEqual([
        expect.objectContaining({ level: 'warn', transactionId, accountId }),
      ]);
      const events = await eventsOf(medId);
      expect(events.map((e) => [e.id, e.type])).toEqual([
        [`evt_${medId}_created`, 'med.created'],
        [`evt_${medId}_overdue`, 'med.updated'],
      ]);
      expect(events[1]!.payload.data).toMatchObject({ id: medId, status: 'open', overdue: true });

      const decided = await handle.decide('accepted');
      // 98.00 of 100.00 returned: the charge stays approved, so only the MED's event.
      expect(decided).toEqual({ ok: true, eventIds: [`evt_${medId}_accepted`] });
      expect(await medOf(medId)).toMatchObject({ status: 'accepted', returnedAmount: 98, overdue: true });
      expect(await handle.result()).toEqual(decided);
      expect(run.overdueCalls).toHaveLength(1);
    });
    expect(await readBalance(sql, accountId)).toEqual({ availableCents: 0, reservedCents: 0, retainedCents: 0 });
    await expectLedgerConsistent(databaseUrl);
  });

  it('a decision before a configured deadline ends the workflow without any alert', async () => {
    const config = loadConfig({ MED_DECISION_DEADLINE_SECONDS: '3600' });
    const { accountId, transactionId } = await approvedCharge();
    const run: Run = { config, transactionId, overdueCalls: [] };
    await withMed(run, async (opened, handle) => {
      if (!opened.ok) throw new Error(opened.message);
      const { medId } = handle;
      const med = await medOf(medId);
      expect(Date.parse(med.deadlineAt) - Date.parse(med.createdAt)).toBe(3_600_000);
      await server.env.sleep(50 * 60_000);
      const decided = await handle.decide('rejected');
      expect(decided).toEqual({ ok: true, eventIds: [`evt_${medId}_rejected`] });
      expect(await medOf(medId)).toMatchObject({ status: 'rejected', overdue: false });
      expect(await handle.result()).toEqual(decided);
      await server.env.sleep(2 * 3_600_000);
      expect(run.overdueCalls).toEqual([]);
      expect((await eventsOf(medId)).map((e) => e.type)).toEqual(['med.created', 'med.updated']);
    });
    expect(await readBalance(sql, accountId)).toEqual({ availableCents: 9_800, reservedCents: 0, retainedCents: 0 });
    await expectLedgerConsistent(databaseUrl);
  });

  it('ends at once when the MED is refused at opening', async () => {
    const accountId = await insertAccountRow(sql);
    const transactionId = await insertTransactionRow(sql, accountId, { status: 'pending' });
    const run: Run = { config: loadConfig({}), transactionId, overdueCalls: [] };
    await withMed(run, async (opened, handle) => {
      expect(opened).toEqual({ ok: false, code: 'operation_refused', message: expect.any(String) });
      expect(await handle.result()).toEqual(opened);
      expect(await handle.decide('accepted').catch((err: Error) => err)).toBeInstanceOf(Error);
    });
    expect((await sql`select count(*)::int as n from meds where transaction_id = ${transactionId}`)[0]!.n).toBe(0);
  });
});
