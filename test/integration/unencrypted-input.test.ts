// Issue 25, item 2: someone who reaches the engine's Temporal without the payload keys (the CLI, the Web
// UI, a plain SDK client) cannot make the worker act. A start of each workflow type with an input in clear
// (a copy of a real one, new ids) fails at once with the reason and moves nothing: no activity, no
// transaction, MED, ledger entry or webhook. A signal or update in clear to a real run changes nothing,
// and the run goes on with the engine's own messages.
import { randomBytes } from 'node:crypto';
import { Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AesGcmPayloadCodec } from '../../src/temporal/codec/aes-gcm-codec.js';
import { chargeWorkflowId, CHARGE_WORKFLOW } from '../../src/charges/contract.js';
import { MED_RETURNS_WORKFLOW } from '../../src/meds/returns.contract.js';
import { medWorkflowId, MED_WORKFLOW } from '../../src/meds/contract.js';
import { PAYLOAD_NOT_ENCRYPTED, REFUSE_UNENCRYPTED_INPUT } from '../../contracts/payload-encryption.contract.js';
import { transferWorkflowId, TRANSFER_WORKFLOW } from '../../src/transfers/contract.js';
import { WEBHOOK_DELIVERY_WORKFLOW } from '../../contracts/webhook-delivery.contract.js';
import { createCharge, newKey, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { liveStack } from '../helpers/live-stack.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';
import { admin } from '../helpers/stack.js';
import { balanceOf, fund, postTransfer } from '../helpers/transfers.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const EventType = temporal.api.enums.v1.EventType;
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('a start, signal or update not encrypted with a known payload key', () => {
  // Transfers wait for the operator: a forged one would stay pending with its amount reserved.
  const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  /** A client without the codec, as the Temporal CLI or Web UI of someone without the keys. */
  let raw: Client;
  let receiver: Receiver;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let paidCharge: any;
  let pendingChargeWorkflowId: string;
  let pendingChargeId: string;
  const realInputs = new Map<string, any>();
  let medId: string;

  const codec = new AesGcmPayloadCodec(testPayloadKeys());
  async function startInputOf(workflowId: string): Promise<any> {
    const history = await raw.workflow.getHandle(workflowId).fetchHistory();
    const [stored] = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads! as Payload[];
    const [clear] = await codec.decode([stored!]);
    return defaultPayloadConverter.fromPayload(clear!);
  }

  /** What a forgery could have changed: the account's balance, its rows, its ledger and webhooks. */
  async function moneyAndRows() {
    const { sql } = live;
    const accountId = merchant.account.id;
    const [counts] = await sql<{ transactions: number; meds: number; postings: number; deliveries: number; attempts: number }[]>`
      select (select count(*)::int from transactions where account_id = ${accountId}) as transactions,
             (select count(*)::int from meds) as meds,
             (select count(*)::int from ledger_postings) as postings,
             (select count(*)::int from webhook_deliveries) as deliveries,
             (select count(*)::int from webhook_attempts) as attempts`;
    return { balance: await balanceOf(merchant.client), ...counts!, webhooksReceived: receiver.received.length };
  }

  beforeAll(async () => {
    const { stack } = live;
    raw = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
    receiver = await startReceiver();
    merchant = await createMerchant(stack);
    expect((await admin(stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url })).status).toBe(201);
    await fund(stack, merchant.client, 50);

    const chargeKey = newKey('c');
    paidCharge = await createCharge(merchant.client, { amount: 30 }, chargeKey);
    expect((await payCharge(stack, paidCharge.id)).status).toBe(200);
    paidCharge = await waitForStatus(merchant.client, paidCharge.id, 'approved');
    realInputs.set(CHARGE_WORKFLOW, await startInputOf(chargeWorkflowId(merchant.account.id, chargeKey)));

    const transferKey = newKey('t');
    const transfer = await postTransfer(merchant.client, { amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf' }, transferKey);
    expect(transfer.status).toBe(201);
    realInputs.set(TRANSFER_WORKFLOW, await startInputOf(transferWorkflowId(merchant.account.id, transferKey)));

    const med = await admin(stack, 'POST', '/simulator/meds', { transactionId: paidCharge.id, amount: 5, reason: 'fraud' });
    expect(med.status).toBe(201);
    medId = med.body.data.id;
    realInputs.set(MED_WORKFLOW, await startInputOf(medWorkflowId(medId)));

    const pendingKey = newKey('p');
    pendingChargeId = (await createCharge(merchant.client, { amount: 7 }, pendingKey)).id;
    pendingChargeWorkflowId = chargeWorkflowId(merchant.account.id, pendingKey);
    // Every webhook of the above delivered, so that nothing but a forgery could change the counts.
    await eventually(
      async () => {
        const [row] = await live.sql<{ pending: number; deliveries: number }[]>`
        select count(*) filter (where status = 'pending')::int as pending, count(*)::int as deliveries from webhook_deliveries`;
        const { pending, deliveries } = row!;
        return pending === 0 && deliveries > 0 && receiver.received.length === deliveries;
      },
      20_000,
      100,
    );
  });

  const engineOutput = () => live.stack.processes.map((p) => p.output()).join('\n');
  /** The run's end, seen without the keys (its result is ciphertext to this client). */
  const completed = (handle: WorkflowHandle) => eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 20_000, 100);
  const medStatus = async (id: string) => (await live.sql<{ status: string }[]>`select status from meds where id = ${id}`)[0]?.status;

  afterAll(async () => {
    await raw?.connection.close();
    await receiver?.close();
  });

  /** Plain JSON inputs, as `temporal workflow start --input` sends them: copies of real ones under new ids. */
  function forgedInputs(): Record<string, unknown> {
    const charge = realInputs.get(CHARGE_WORKFLOW);
    const transfer = realInputs.get(TRANSFER_WORKFLOW);
    const med = realInputs.get(MED_WORKFLOW);
    return {
      [TRANSFER_WORKFLOW]: {
        ...transfer,
        requestId: `req_${hex(8)}`,
        draft: { ...transfer.draft, transactionId: `out_${hex(12)}`, externalId: `forged-${hex(4)}` },
      },
      [CHARGE_WORKFLOW]: {
        ...charge,
        requestId: `req_${hex(8)}`,
        draft: { ...charge.draft, transactionId: `txn_${hex(12)}`, externalId: `forged-${hex(4)}` },
      },
      [MED_WORKFLOW]: { open: { ...med.open, medId: `med_${hex(12)}`, amountCents: null } },
      [MED_RETURNS_WORKFLOW]: { route: paidCharge.acquirer, endToEndId: `E${hex(15)}` },
      [WEBHOOK_DELIVERY_WORKFLOW]: {
        deliveryId: `whd_${hex(8)}`,
        trigger: 'manual',
        attempts: 1,
        schedule: { initialMs: 100, maxMs: 100 },
      },
    };
  }

  async function activitiesOf(handle: WorkflowHandle): Promise<number> {
    const { events } = await handle.fetchHistory();
    return events!.filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED ||
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    ).length;
  }

  it.each([TRANSFER_WORKFLOW, CHARGE_WORKFLOW, MED_WORKFLOW, MED_RETURNS_WORKFLOW, WEBHOOK_DELIVERY_WORKFLOW])(
    'a %s started with an input in clear fails with the reason and moves nothing',
    async (workflowType) => {
      const before = await moneyAndRows();
      const handle = await raw.workflow.start(workflowType, {
        taskQueue: live.stack.taskQueue,
        workflowId: `forged:${merchant.account.id}:${hex(6)}`,
        args: [forgedInputs()[workflowType]],
      });
      const failure = await handle.result().then(
        () => null,
        (err) => err,
      );
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect(failure.cause).toMatchObject({
        type: PAYLOAD_NOT_ENCRYPTED,
        message: expect.stringContaining('not encrypted with a known payload key'),
      });
      expect((await handle.describe()).status.name).toBe('FAILED');
      expect(await activitiesOf(handle)).toBe(0);
      expect(await moneyAndRows()).toEqual(before);
      await expectLedgerConsistent(live.stack.databaseUrl);
      await eventually(() => engineOutput().includes(handle.workflowId), 10_000, 100);
      expect(
        engineOutput()
          .split('\n')
          .find((line) => line.includes(handle.workflowId) && line.includes('alert: workflow start refused')),
      ).toBeDefined();
    },
  );

  it('a start without any input fails the same way', async () => {
    const handle = await raw.workflow.start(TRANSFER_WORKFLOW, {
      taskQueue: live.stack.taskQueue,
      workflowId: `forged:${hex(6)}`,
      args: [],
    });
    await expect(handle.result()).rejects.toMatchObject({ cause: { type: PAYLOAD_NOT_ENCRYPTED } });
    expect(await activitiesOf(handle)).toBe(0);
  });

  it('an update in clear to a real MED is refused, the MED stays open, and the operator’s decision still settles it', async () => {
    const before = await moneyAndRows();
    const handle = raw.workflow.getHandle(medWorkflowId(medId));
    const refused = await handle.executeUpdate('decide', { args: ['accepted'] }).then(
      () => null,
      (err) => err,
    );
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(refused.cause).toMatchObject({ type: PAYLOAD_NOT_ENCRYPTED, message: expect.stringContaining('update decide') });
    expect(await medStatus(medId)).toBe('open');
    expect(await moneyAndRows()).toEqual(before);

    const decided = await admin(live.stack, 'POST', `/meds/${medId}/decision`, { outcome: 'rejected' });
    expect(decided.status).toBe(200);
    await completed(handle);
    expect(await medStatus(medId)).toBe('rejected');
  });

  it('a signal with arguments in clear to a pending charge is ignored (no route call), and the real payment still settles it', async () => {
    const handle = raw.workflow.getHandle(pendingChargeWorkflowId);
    const routeCallsAfterSignal = async () => {
      const { events } = await handle.fetchHistory();
      const signalled = events!.findIndex((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
      const after = events!.slice(signalled);
      if (!after.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)) return undefined;
      const markers = after.flatMap((e) => (e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes] : []));
      const text = (m: (typeof markers)[number], field: string) => Buffer.from(m.details![field]!.payloads![0]!.data!).toString('utf8');
      return {
        patches: markers.filter((m) => m.markerName === 'core_patch').map((m) => JSON.parse(text(m, 'patch-data')).id),
        localActivities: markers
          .filter((m) => m.markerName === 'core_local_activity')
          .map((m) => JSON.parse(text(m, 'data')).activity_type),
      };
    };
    await handle.signal('paymentNotified', { paid: true });
    const seen = await eventually(routeCallsAfterSignal, 20_000);
    expect(seen).toEqual({ patches: [REFUSE_UNENCRYPTED_INPUT], localActivities: [] });

    expect((await payCharge(live.stack, pendingChargeId)).status).toBe(200);
    await waitForStatus(merchant.client, pendingChargeId, 'approved');
    await completed(handle);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
