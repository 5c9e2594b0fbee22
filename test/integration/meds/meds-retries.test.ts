// POST /admin/simulator/meds under client retries: an Idempotency-Key binds the MED the first request
// opened (same body: that MED again, 200; another body: 409), and neither opening nor deciding waits
// without bound while no worker runs: 202 with the MED as known, then the same call again once a
// worker is back answers the outcome.
import { describe, expect, it } from 'vitest';
import { createCharge, newKey, payCharge, waitForStatus } from '../../helpers/charges.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { liveStack } from '../../helpers/live-stack.js';
import { poll } from '../../helpers/probe.js';
import { runPixctl } from '../../helpers/pixctl-run.js';
import { ADMIN_TOKEN, http, spawnEngine, waitWorker, type HttpResult } from '../../helpers/stack.js';

/** Longer than ACCEPT_WAIT_MS plus the reachability check: a call still waiting then waits without bound. */
const CALL_TIMEOUT_MS = 15_000;

describe('MEDs opened and decided by retrying clients', () => {
  const live = liveStack({ layout: 'split', env: { ACCEPT_WAIT_MS: '3000' } });

  const adminCall = (path: string, body: unknown, key?: string): Promise<HttpResult> =>
    Promise.race([
      http('POST', `${live.stack.adminUrl}${path}`, { body, token: ADMIN_TOKEN, headers: key ? { 'Idempotency-Key': key } : {} }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`POST ${path} did not answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS),
      ),
    ]);
  const openMed = (body: Record<string, unknown>, key?: string) => adminCall('/simulator/meds', body, key);
  const decide = (id: string, outcome: string) => adminCall(`/meds/${id}/decision`, { outcome });

  async function approvedCharge(amount: number) {
    const { client } = await createMerchant(live.stack);
    const charge = await createCharge(client, { amount });
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(client, charge.id, 'approved');
    return { client, charge };
  }

  async function restartWorker() {
    const worker = spawnEngine('worker', live.stack.env);
    live.stack.processes.push(worker);
    await waitWorker(worker);
  }

  const workerProcess = () => live.stack.processes.filter((p) => p.role === 'worker').at(-1)!;

  it('a repeat with the same key and body answers the same MED; another body under that key is 409; without a key nothing changes', async () => {
    const { charge } = await approvedCharge(40);
    const key = newKey('med');
    const body = { transactionId: charge.id, amount: 10, reason: 'fraud' };
    const first = await openMed(body, key);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ idempotent: false, data: { transactionId: charge.id, status: 'open', amount: 10 } });
    const again = await openMed(body, key);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ idempotent: true, data: first.body.data });
    const other = await openMed({ ...body, amount: 11 }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect((await live.sql`select count(*)::int as n from meds where transaction_id = ${charge.id}`)[0]!.n).toBe(1);

    const bad = await openMed(body, 'chave inválida');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_idempotency_key');
    const withoutKey = await openMed(body);
    expect(withoutKey.status).toBe(422);
    expect(withoutKey.body).not.toHaveProperty('idempotent');
  });

  it('pixctl meds open --idempotency-key: the same command twice opens one MED', async () => {
    const { charge } = await approvedCharge(12);
    const command = ['meds', 'open', charge.id, '--amount', '2', '--idempotency-key', newKey('cli'), '--json'];
    const [first, again] = [await runPixctl(live.stack, command), await runPixctl(live.stack, command)];
    expect(first.code, first.stderr).toBe(0);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
  });

  it('a repeat of a refused opening answers the same refusal', async () => {
    const { client } = await createMerchant(live.stack);
    const pendingCharge = await createCharge(client, { amount: 5 });
    const key = newKey('refused');
    const first = await openMed({ transactionId: pendingCharge.id }, key);
    expect(first.status, first.text).toBe(422);
    const again = await openMed({ transactionId: pendingCharge.id }, key);
    expect(again.status, again.text).toBe(422);
    expect(again.body.error).toEqual(first.body.error);
  });

  it('with the worker down, open and decide answer 202 in bounded time; once it is back the same calls answer the outcome', async () => {
    const { charge } = await approvedCharge(30);
    await workerProcess().kill();
    const key = newKey('down');
    const body = { transactionId: charge.id, reason: 'operational_failure' };
    const pending = await openMed(body, key);
    expect(pending.status, pending.text).toBe(202);
    expect(pending.body.data).toMatchObject({ id: expect.stringMatching(/^med_/), transactionId: charge.id, status: 'open', amount: 30 });
    const stillPending = await openMed(body, key);
    expect(stillPending.status, stillPending.text).toBe(202);
    expect(stillPending.body.data.id).toBe(pending.body.data.id);

    await restartWorker();
    const opened = await poll(
      () => openMed(body, key),
      (res) => res,
      { notYet: [202], timeoutMs: 30_000, everyMs: 500 },
    );
    expect(opened.body.data).toMatchObject({ id: pending.body.data.id, status: 'open', retainedAmount: 30 });
    expect((await live.sql`select count(*)::int as n from meds where transaction_id = ${charge.id}`)[0]!.n).toBe(1);

    await workerProcess().kill();
    const deciding = await decide(pending.body.data.id, 'accepted');
    expect(deciding.status, deciding.text).toBe(202);
    expect(deciding.body.data).toMatchObject({ id: pending.body.data.id, status: 'open' });
    await restartWorker();
    const decided = await poll(
      () => decide(pending.body.data.id, 'accepted'),
      (res) => res,
      { notYet: [202], timeoutMs: 30_000, everyMs: 500 },
    );
    expect(decided.body.data).toMatchObject({ id: pending.body.data.id, status: 'accepted', returnedAmount: 30 });
  });
});
