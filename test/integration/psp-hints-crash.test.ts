// A PSP webhook answered 200 by an engine process that dies before acting on it: the hint is in
// PostgreSQL, and the next process to start acts on it. The engine (one `all` process, against the
// conformance fake PSP) reaches Temporal through a relay the test cuts, so that neither its hint processor
// nor its worker can act on the webhook; it is then killed (SIGKILL) and a new process started. That the
// charge was approved on the hint, not on a poll, is read in its history: no poll timer fired between the
// payment and the signal, and the workflow acted on the signal before any other timer.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { createCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { freePort } from '../../src/runtime/free-port.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { http, spawnEngine, startStack, waitReady, type Stack } from '../helpers/stack.js';
import { tcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { eventTypes, firstAfterSignal, historyReader, timersBeforeSignal } from '../helpers/workflow-history.js';

let psp: FakePsp;
let relay: TcpRelay;
let stack: Stack;
let sql: Sql;
let temporal: Client;
let listenerUrl: string;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  psp = await startFakePsp();
  const onPsp = await engineOnFakePsp(psp);
  listenerUrl = onPsp.listenerUrl;
  const relayPort = await freePort();
  relay = tcpRelay(relayPort, inject('temporalAddress'));
  await relay.open();
  stack = await startStack({ env: { ...onPsp.env, TEMPORAL_ADDRESS: `127.0.0.1:${relayPort}` } });
  sql = connect(stack.databaseUrl, { max: 2 });
  temporal = await historyReader();
  merchant = await createMerchant(stack, { route: 'psp' });
}, 120_000);

afterAll(async () => {
  await temporal?.connection.close();
  await sql?.end({ timeout: 5 });
  await stack?.stop();
  await relay?.cut();
  await psp?.close();
});

const webhook = (endToEndIds: string[]) => psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds });
const cobReads = (txid: string) => psp.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/cob/${txid}`)).length;
const count = (types: string[], type: string) => types.filter((t) => t === type).length;

async function statusOf(id: string): Promise<string> {
  return (await sql<{ status: string }[]>`select status from transactions where id = ${id}`)[0]!.status;
}

/** The names of the hints stored and not acted on yet. */
async function pendingHints(): Promise<string[]> {
  return (await sql<{ name: string }[]>`select name from psp_hints where signalled_at is null order by name`).map((row) => row.name);
}

async function hintGauges(): Promise<{ pending: number; oldestAge: number }> {
  const res = await http('GET', stack.adminUrl.replace(/\/admin$/, '/metrics'));
  expect(res.status).toBe(200);
  const families = parsePrometheusText(res.text);
  return {
    pending: sampleValue(families, 'pix_psp_hints_pending')!,
    oldestAge: sampleValue(families, 'pix_psp_hints_oldest_age_seconds')!,
  };
}

/** Waits until the charge's workflow made `polls` polls and waits for the next one (its timer the last event); answers the timers fired. */
async function afterPolls(handle: WorkflowHandle, txid: string, polls: number): Promise<number> {
  return eventually(
    async () => {
      const types = await eventTypes(handle);
      const fired = count(types, 'TIMER_FIRED');
      const idle = count(types, 'TIMER_STARTED') === fired + 1 && types.at(-1) === 'TIMER_STARTED';
      return cobReads(txid) >= polls && idle ? fired : undefined;
    },
    90_000,
    200,
  );
}

describe('PSP webhook hints across a crash after the 200', () => {
  it('a hint answered 200 by a process that died before acting on it is acted on by the next process: the charge approved on it, not on a poll, and the MED check the body asked for', async () => {
    // A charge paid before, whose Pix the PSP has since partly returned (a MED devolução).
    const earlier = await createCharge(merchant.client, { amount: 30 });
    const { endToEndId: earlierPix } = psp.pay(txidOf(earlier.id));
    expect(await webhook([earlierPix])).toBe(200);
    await eventually(async () => (await statusOf(earlier.id)) === 'approved', 20_000);
    psp.addDevolucao(earlierPix, { id: 'D1crash', amountCents: 1000, natureza: 'MED_OPERACIONAL' });

    const charge = await createCharge(merchant.client, { amount: 12 });
    const txid = txidOf(charge.id);
    const handle = temporal.workflow.getHandle(chargeWorkflowId(merchant.account.id, charge.externalId));
    // After the third poll the next is 40 s away (remotePollDelayMs): the crash and the restart fit between.
    const pollsBefore = await afterPolls(handle, txid, 3);
    const readsBefore = cobReads(txid);

    await relay.cut();
    const { endToEndId } = psp.pay(txid);
    expect(await webhook([endToEndId, earlierPix])).toBe(200);
    // Stored before the answer; with Temporal out of reach, nothing acted on them.
    const stored = [charge.id, earlier.id, endToEndId, earlierPix].sort();
    expect(await pendingHints()).toEqual(stored);
    const waiting = await hintGauges();
    expect(waiting.pending).toBe(stored.length);
    expect(waiting.oldestAge).toBeGreaterThan(0);

    await stack.processes[0]!.kill();
    expect(await pendingHints()).toEqual(stored);
    expect(await statusOf(charge.id)).toBe('pending');

    await relay.open();
    const next = spawnEngine('all', stack.env);
    stack.processes.push(next);
    await waitReady(stack.rootUrl, next);

    await eventually(async () => (await statusOf(charge.id)) === 'approved', 30_000, 100);
    const types = await eventTypes(handle);
    expect(timersBeforeSignal(types)).toBe(pollsBefore);
    expect(firstAfterSignal(types)).toBe('work');
    expect(cobReads(txid)).toBe(readsBefore + 1);

    const med = await eventually(
      async () =>
        (
          await sql<
            { route_return_id: string; amount: bigint }[]
          >`select route_return_id, amount from meds where transaction_id = ${earlier.id}`
        )[0],
      20_000,
      100,
    );
    expect([med.route_return_id, Number(med.amount)]).toEqual(['D1crash', 1000]);
    await eventually(async () => (await pendingHints()).length === 0, 10_000);
    expect((await hintGauges()).pending).toBe(0);
    await expectLedgerConsistent(stack.databaseUrl);
  }, 180_000);
});
