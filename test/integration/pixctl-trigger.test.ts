// pixctl trigger as a developer runs it: the real bin/pixctl.js makes each event happen on the simulator
// for an account, and the account's webhook endpoint receives it, signed, about the object the command
// names; what cannot be triggered is refused with the reason, and changes nothing.
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { runPixctl } from '../helpers/pixctl-run.js';
import { admin } from '../helpers/stack.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const live = liveStack();
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

function verified(rawBody: string, header: string, secret: string): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  return v1 === createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
}

describe('pixctl trigger', () => {
  it('makes each event happen and the webhook endpoint receive it', async () => {
    const merchant = await createMerchant(live.stack);
    const accountId = merchant.account.id;
    const endpoint = await admin(live.stack, 'POST', `/accounts/${accountId}/webhook-endpoints`, { url: receiver.url });
    expect(endpoint.status, endpoint.text).toBe(201);
    const secret = endpoint.body.data.secret as string;

    for (const event of [
      'transaction.approved',
      'transaction.cancelled',
      'transaction.failed',
      'med.created',
      'refund.approved',
      'recurrence.updated',
    ]) {
      const run = await runPixctl(live.stack, ['trigger', event, '--account', accountId, '--json']);
      expect(run.code, `${event}: ${run.stderr}${run.stdout}`).toBe(0);
      const made = JSON.parse(run.stdout);
      expect(made).toEqual({ event, accountId, transactionId: expect.any(String), objectId: expect.any(String) });
      const delivery = await eventually(
        () =>
          receiver.received.find((r) => {
            if (r.headers['x-service-event'] !== event) return false;
            const data = JSON.parse(r.rawBody).data;
            return data.id === made.objectId;
          }),
        30_000,
      );
      expect(verified(delivery.rawBody, String(delivery.headers['x-service-signature']), secret), event).toBe(true);
    }
  });

  it('refuses what it cannot make happen', async () => {
    const merchant = await createMerchant(live.stack);
    const unknown = await runPixctl(live.stack, ['trigger', 'transaction.paid', '--account', merchant.account.id]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/transaction\.approved/);
    // A recurrence's receiver is a company: a person's account (CPF) is refused by the engine's own rule.
    const person = await createMerchant(live.stack, { document: generateCpf() });
    const recurrence = await runPixctl(live.stack, ['trigger', 'recurrence.updated', '--account', person.account.id]);
    expect(recurrence.code).toBe(1);
    expect(recurrence.stderr + recurrence.stdout).toMatch(/CNPJ/);
    const missing = await runPixctl(live.stack, ['trigger', 'transaction.approved', '--account', 'acc_doesnotexist']);
    expect(missing.code).toBe(1);
    expect(missing.stderr + missing.stdout).toMatch(/not_found|não encontrada/);
    expect((await merchant.client.get('/transactions')).body.data).toEqual([]);
  });
});
