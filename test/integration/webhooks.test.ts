// Webhooks end to end: real charges on a real stack, delivered to real local HTTP receivers, the
// signatures checked by an independent implementation (the `stripe` package's verifier, whose
// `t=…,v1=…` HMAC-SHA256 scheme is ours), with the anti-replay window integrators are told to use.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/runtime/log.js';
import { connectClient } from '../../src/temporal/connection.js';
import { dispatchEvent } from '../../src/webhooks/dispatch.js';
import { waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { ADMIN_TOKEN, admin } from '../helpers/stack.js';
import { completeTransferOnceArrived } from '../helpers/transfers.js';
import { startReceiver, type Receiver, type ReceivedWebhook, type ReceiverReply } from '../helpers/webhook-receiver.js';

/** The timestamp tolerance the README tells integrators to enforce. */
const TOLERANCE_SECONDS = 300;
const DELIVERY_ID = /^whd_[0-9a-f]{32}$/;
const PIXCTL = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'pixctl.js');

type Merchant = Awaited<ReturnType<typeof createMerchant>>;
type Endpoint = { id: string; url: string; secret: string };

function harness(stackEnv: Record<string, string>) {
  const live = liveStack({ env: stackEnv });
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  const h = {
    live,
    async receiver(reply?: (n: number) => ReceiverReply): Promise<Receiver> {
      const receiver = await startReceiver(reply);
      receivers.push(receiver);
      return receiver;
    },
    async registerEndpoint(accountId: string, url: string): Promise<Endpoint> {
      const res = await admin(live.stack, 'POST', `/accounts/${accountId}/webhook-endpoints`, { url });
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    },
    /** A new merchant with an endpoint registered for a new receiver that answers by `reply`. */
    async merchantWithEndpoint(
      reply?: (n: number) => ReceiverReply,
    ): Promise<{ merchant: Merchant; receiver: Receiver; endpoint: Endpoint }> {
      const merchant = await createMerchant(live.stack);
      const receiver = await h.receiver(reply);
      const endpoint = await h.registerEndpoint(merchant.account.id, receiver.url);
      return { merchant, receiver, endpoint };
    },
    async charge(merchant: Merchant, extra: Record<string, unknown> = {}): Promise<any> {
      const res = await merchant.client.post(
        '/transactions',
        {
          amount: 25.9,
          payer: { name: 'Maria da Silva', document: CPF.valid, email: 'maria@example.com' },
          description: 'Pedido 42',
          ...extra,
        },
        { 'Idempotency-Key': `wh-${Math.random().toString(36).slice(2)}` },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.data;
    },
    /** A charge the simulated payer has paid. */
    async paidCharge(merchant: Merchant, extra: Record<string, unknown> = {}): Promise<any> {
      const charge = await h.charge(merchant, extra);
      const res = await admin(live.stack, 'POST', `/simulator/charges/${charge.id}/pay`);
      expect(res.status, res.text).toBe(200);
      return charge;
    },
    async deliveries(query: string): Promise<any[]> {
      const res = await admin(live.stack, 'GET', `/webhook-deliveries?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    },
    /** Waits until the first delivery matching `query` has `status`; resolves with it. */
    waitForDelivery(query: string, status: string, timeoutMs?: number): Promise<any> {
      return eventually(async () => {
        const [first] = await h.deliveries(query);
        return first?.status === status && first;
      }, timeoutMs);
    },
    /** Runs the real pixctl against the stack; resolves with its exit status and output. */
    pixctl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      const env = { PATH: process.env.PATH!, PIX_ADMIN_URL: live.stack.adminUrl, ADMIN_TOKEN };
      return new Promise((resolve) => {
        execFile(process.execPath, [PIXCTL, ...args], { env }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        );
      });
    },
    /**
     * A marker: a later charge of `merchant` whose own webhookUrl is `receiver`, paid, and its approval
     * received there. Whatever the engine did before it (a duplicate, a delivery it should not make) has
     * had its turn by then, so a count taken afterwards is exact, where a sleep could miss a late one.
     */
    async marker(merchant: Merchant, receiver: Receiver): Promise<string> {
      const marker = await h.paidCharge(merchant, { webhookUrl: receiver.url });
      const event = `evt_${marker.id}_approved`;
      await eventually(() => receiver.received.some((r) => eventOf(r) === event), 20_000);
      return event;
    },
    /** Waits until the receiver holds `count` requests carrying `event`. */
    async received(receiver: Receiver, event: string, count = 1, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
      return eventually(() => {
        const matching = receiver.received.filter((r) => r.headers['x-service-event'] === event);
        return matching.length >= count && matching;
      }, timeoutMs);
    },
  };
  return h;
}

/** The event id a received delivery carries. */
const eventOf = (delivery: ReceivedWebhook): string => JSON.parse(delivery.rawBody).id;

/** Verifies a delivery as an integrator would (stripe's verifier) and checks the headers; returns the parsed body. */
function verified(delivery: ReceivedWebhook, signingKey: string): any {
  const header = delivery.headers['x-service-signature'] as string;
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  const event = Stripe.webhooks.constructEvent(delivery.rawBody, header, signingKey, TOLERANCE_SECONDS) as any;
  expect(delivery.headers['content-type']).toBe('application/json');
  expect(delivery.headers['user-agent']).toMatch(/^PixEngine-Webhooks\//);
  expect(delivery.headers['x-service-delivery']).toMatch(DELIVERY_ID);
  expect(delivery.headers['x-service-event']).toBe(event.event);
  expect(Object.keys(event)).toEqual(['id', 'event', 'createdAt', 'data']);
  return event;
}

function expectRejectedBy(delivery: ReceivedWebhook, wrongKey: string) {
  expect(() =>
    Stripe.webhooks.constructEvent(delivery.rawBody, delivery.headers['x-service-signature'] as string, wrongKey, TOLERANCE_SECONDS),
  ).toThrow();
}

describe('webhooks: delivery to local receivers (WEBHOOK_ALLOW_INSECURE=true)', () => {
  const h = harness({
    WEBHOOK_RETRY_INITIAL_MS: '200',
    WEBHOOK_RETRY_MAX_MS: '1000',
    CHARGE_TTL_SECONDS: '2',
    SIMULATOR_TRANSFER_DELAY_MS: '-1',
  });

  it('registers an endpoint: 201 with the secret shown once, listed without it; bad input refused', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint();
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^whe_/),
      url: receiver.url,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });

    const list = await admin(h.live.stack, 'GET', `/accounts/${merchant.account.id}/webhook-endpoints`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: endpoint.id, accountId: merchant.account.id, url: receiver.url, createdAt: expect.any(String), disabledAt: null },
    ]);
    expect(list.text).not.toContain(endpoint.secret);

    const refusals: Array<[unknown, number, string]> = [
      [{ url: 'ftp://example.com/hook' }, 400, 'invalid_request'],
      [{ url: 'not a url' }, 400, 'invalid_request'],
      [{}, 400, 'invalid_request'],
      [{ url: receiver.url, extra: 1 }, 400, 'invalid_request'],
      [{ url: receiver.url }, 422, 'operation_refused'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await admin(h.live.stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    const unknownAccount = await admin(h.live.stack, 'POST', '/accounts/acc_missing/webhook-endpoints', { url: receiver.url });
    expect(unknownAccount.status).toBe(404);
  });

  it('delivers transaction.approved to the registered endpoint, signed with its secret, carrying the Transaction as GET returns it', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint();
    const charge = await h.paidCharge(merchant);

    const [delivery] = await h.received(receiver, 'transaction.approved');
    const event = verified(delivery!, endpoint.secret);
    expectRejectedBy(delivery!, 'whsec_wrong');
    const current = await merchant.client.get(`/transactions/${charge.id}`);
    expect(event).toEqual({
      id: `evt_${charge.id}_approved`,
      event: 'transaction.approved',
      createdAt: expect.any(String),
      data: current.body.data,
    });
    expect(event.data).toMatchObject({ id: charge.id, status: 'approved', type: 'payment', direction: 'in' });
  });

  it('delivers transaction.failed for a transfer the network refuses, with the transfer as GET returns it', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint();
    const charge = await h.paidCharge(merchant);
    await h.received(receiver, 'transaction.approved');

    const created = await merchant.client.post(
      '/transfers',
      { amount: 5, pixKey: CPF.valid, pixKeyType: 'cpf' },
      { 'Idempotency-Key': `wh-out-${charge.id}` },
    );
    expect(created.status, created.text).toBe(201);
    const transferId = created.body.data.id as string;
    await completeTransferOnceArrived(h.live.stack, transferId, 'failed');

    const [delivery] = await h.received(receiver, 'transaction.failed');
    const event = verified(delivery!, endpoint.secret);
    const current = await merchant.client.get(`/transactions/${transferId}`);
    expect(event).toEqual({
      id: `evt_${transferId}_failed`,
      event: 'transaction.failed',
      createdAt: expect.any(String),
      data: current.body.data,
    });
    expect(event.data).toMatchObject({ status: 'failed', type: 'withdrawal', direction: 'out' });
  });

  it('delivers transaction.cancelled for an expired charge (data.expired true) to the charge webhookUrl, signed with the endpoint secret', async () => {
    const merchant = await createMerchant(h.live.stack);
    const endpointReceiver = await h.receiver();
    const chargeReceiver = await h.receiver();
    const endpoint = await h.registerEndpoint(merchant.account.id, endpointReceiver.url);
    const charge = await h.charge(merchant, { webhookUrl: chargeReceiver.url });

    for (const receiver of [endpointReceiver, chargeReceiver]) {
      const [delivery] = await h.received(receiver, 'transaction.cancelled');
      const event = verified(delivery!, endpoint.secret);
      expect(event).toMatchObject({ id: `evt_${charge.id}_cancelled`, data: { id: charge.id, status: 'cancelled', expired: true } });
    }
    const [a, b] = [endpointReceiver.received[0]!, chargeReceiver.received[0]!];
    expect(a.headers['x-service-delivery']).not.toBe(b.headers['x-service-delivery']);
  });

  it('legacy key: a charge webhookUrl on an account without endpoints is signed with the hex SHA-256 of the API key', async () => {
    const merchant = await createMerchant(h.live.stack);
    const receiver = await h.receiver();
    const charge = await h.paidCharge(merchant, { webhookUrl: receiver.url });

    const [delivery] = await h.received(receiver, 'transaction.approved');
    const legacyKey = createHash('sha256').update(merchant.key).digest('hex');
    expect(verified(delivery!, legacyKey)).toMatchObject({ id: `evt_${charge.id}_approved`, data: { id: charge.id, status: 'approved' } });
    expectRejectedBy(delivery!, merchant.key);
    const [record] = await h.deliveries(`transactionId=${charge.id}`);
    expect(record).toMatchObject({ target: 'charge', signedWith: 'api_key_hash', endpointId: null, url: receiver.url });
  });

  it('a webhookUrl equal to a registered endpoint is delivered once', async () => {
    const { merchant, receiver } = await h.merchantWithEndpoint();
    const charge = await h.paidCharge(merchant, { webhookUrl: receiver.url });
    await h.received(receiver, 'transaction.approved');
    await h.marker(merchant, receiver);
    expect(receiver.received.filter((r) => eventOf(r) === `evt_${charge.id}_approved`)).toHaveLength(1);
    expect(await h.deliveries(`eventId=evt_${charge.id}_approved`)).toHaveLength(1);
  });

  it('a receiver that fails 3 times and then answers 2xx gets 4 attempts, one delivery id, one success', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint((n) => ({ status: n <= 3 ? 500 : 204 }));
    const charge = await h.paidCharge(merchant);

    const attempts = await h.received(receiver, 'transaction.approved', 4);
    expect(new Set(attempts.map((a) => a.headers['x-service-delivery'])).size).toBe(1);
    for (const attempt of attempts) verified(attempt, endpoint.secret);
    const record = await h.waitForDelivery(`transactionId=${charge.id}`, 'succeeded');
    expect(record.id).toBe(attempts[0]!.headers['x-service-delivery']);
    expect(record).toMatchObject({
      eventId: `evt_${charge.id}_approved`,
      event: 'transaction.approved',
      target: 'endpoint',
      endpointId: endpoint.id,
      signedWith: 'endpoint_secret',
      attemptCount: 4,
    });
    expect(record.deliveredAt).toEqual(expect.any(String));
    expect(record.attempts.map((a: any) => [a.number, a.trigger, a.success, a.statusCode, a.errorCode])).toEqual([
      [1, 'automatic', false, 500, 'http_status'],
      [2, 'automatic', false, 500, 'http_status'],
      [3, 'automatic', false, 500, 'http_status'],
      [4, 'automatic', true, 204, null],
    ]);
    // Each POST the receiver got falls inside its recorded attempt, whose measured duration fits there too.
    record.attempts.forEach((attempt: any, i: number) => {
      const [started, finished] = [Date.parse(attempt.startedAt), Date.parse(attempt.finishedAt)];
      expect(attempts[i]!.receivedAtMs).toBeGreaterThanOrEqual(started);
      expect(attempts[i]!.receivedAtMs).toBeLessThanOrEqual(finished);
      expect(Number.isInteger(attempt.durationMs)).toBe(true);
      expect(attempt.durationMs).toBeLessThanOrEqual(finished - started + 1);
    });
    // The waits between attempts follow the configured schedule (200 ms doubling).
    const gaps = attempts.slice(1).map((a, i) => a.receivedAtMs - attempts[i]!.receivedAtMs);
    [200, 400, 800].forEach((wait, i) => expect(gaps[i]).toBeGreaterThanOrEqual(wait));
  });

  it('a receiver that always fails gets exactly 8 attempts, then the delivery is failed; a manual redelivery succeeds later', async () => {
    let answer = 503;
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint(() => ({ status: answer }));
    const charge = await h.paidCharge(merchant);

    const record = await h.waitForDelivery(`eventId=evt_${charge.id}_approved`, 'failed', 30_000);
    expect(record.attemptCount).toBe(8);
    expect(record.attempts.map((a: any) => a.statusCode)).toEqual(Array(8).fill(503));
    await h.marker(merchant, receiver);
    const ofCharge = () => receiver.received.filter((r) => eventOf(r) === `evt_${charge.id}_approved`);
    expect(ofCharge()).toHaveLength(8);

    answer = 200;
    const retry = await admin(h.live.stack, 'POST', `/webhook-deliveries/${record.id}/retry`);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.data).toMatchObject({ id: record.id, status: 'succeeded', attemptCount: 9 });
    expect(retry.body.data.attempts.at(-1)).toMatchObject({ number: 9, trigger: 'manual', success: true, statusCode: 200 });
    expect(ofCharge()).toHaveLength(9);
    const redelivered = ofCharge()[8]!;
    expect(redelivered.headers['x-service-delivery']).toBe(record.id);
    expect(verified(redelivered, endpoint.secret).id).toBe(`evt_${charge.id}_approved`);
  });

  it('a receiver slower than 8 s times out; the next attempt succeeds', async () => {
    const { merchant } = await h.merchantWithEndpoint((n) => (n === 1 ? { status: 200, delayMs: 9500 } : { status: 200 }));
    const charge = await h.paidCharge(merchant);

    const record = await h.waitForDelivery(`transactionId=${charge.id}`, 'succeeded', 30_000);
    expect(record.attempts).toHaveLength(2);
    // Given up at the 8 s timeout (never earlier), not when the receiver would have answered at 9.5 s.
    expect(record.attempts[0]).toMatchObject({
      number: 1,
      success: false,
      statusCode: null,
      errorCode: 'timeout',
      error: 'sem resposta em 8 s',
    });
    expect(record.attempts[0].durationMs).toBeGreaterThanOrEqual(7900);
    expect(record.attempts[1]).toMatchObject({ number: 2, success: true, statusCode: 200 });
  });

  it('a redirect is not followed: a 3xx is a failed attempt', async () => {
    const elsewhere = await h.receiver();
    const { merchant } = await h.merchantWithEndpoint((n) =>
      n === 1 ? { status: 302, headers: { location: elsewhere.url } } : { status: 200 },
    );
    const charge = await h.paidCharge(merchant);

    const record = await h.waitForDelivery(`transactionId=${charge.id}`, 'succeeded');
    expect(record.attempts.map((a: any) => [a.success, a.statusCode, a.errorCode])).toEqual([
      [false, 302, 'redirect'],
      [true, 200, null],
    ]);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('manual redelivery of a delivered event: same delivery id, a manual attempt; unknown id is 404', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint();
    const charge = await h.paidCharge(merchant);
    const [first] = await h.received(receiver, 'transaction.approved');
    const deliveryId = first!.headers['x-service-delivery'] as string;
    await h.waitForDelivery(`transactionId=${charge.id}`, 'succeeded');

    const retry = await admin(h.live.stack, 'POST', `/webhook-deliveries/${deliveryId}/retry`);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.data.attempts.map((a: any) => a.trigger)).toEqual(['automatic', 'manual']);
    const again = receiver.received[1]!;
    expect(again.headers['x-service-delivery']).toBe(deliveryId);
    expect(again.rawBody).toBe(first!.rawBody);
    verified(again, endpoint.secret);

    const shown = await admin(h.live.stack, 'GET', `/webhook-deliveries/${deliveryId}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(retry.body.data);

    for (const [method, path] of [
      ['POST', '/webhook-deliveries/whd_missing/retry'],
      ['GET', '/webhook-deliveries/whd_missing'],
    ]) {
      const res = await admin(h.live.stack, method!, path!);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('dispatching an event again, as a retried activity would, delivers nothing twice (running or finished)', async () => {
    const { merchant, receiver } = await h.merchantWithEndpoint((n) => ({ status: n === 1 ? 500 : 200 }));
    const charge = await h.paidCharge(merchant);
    const eventId = `evt_${charge.id}_approved`;
    const config = loadConfig(h.live.stack.env);
    const temporal = await connectClient({ address: inject('temporalAddress') }, 'default', config.payloadKeys!);
    try {
      const deps = { config, log: createLogger('silent'), sql: h.live.sql, temporal };
      // While its workflow waits to retry after the first failure, then once it has succeeded.
      const [pending] = await eventually(async () => {
        const found = await h.deliveries(`eventId=${eventId}`);
        return found[0]?.attemptCount === 1 && found[0].status === 'pending' && found;
      });
      expect(await dispatchEvent(deps, eventId)).toEqual([pending.id]);
      await h.waitForDelivery(`eventId=${eventId}`, 'succeeded');
      expect(await dispatchEvent(deps, eventId)).toEqual([pending.id]);
    } finally {
      await temporal.connection.close();
    }
    await h.marker(merchant, receiver);
    expect(receiver.received.filter((r) => eventOf(r) === eventId)).toHaveLength(2);
    expect((await h.deliveries(`eventId=${eventId}`)).map((d) => d.attemptCount)).toEqual([2]);
  });

  it('a disabled endpoint gets no new events and cannot be redelivered to', async () => {
    const { merchant, receiver, endpoint } = await h.merchantWithEndpoint();
    await h.paidCharge(merchant);
    const [delivered] = await h.received(receiver, 'transaction.approved');

    const disabled = await admin(h.live.stack, 'DELETE', `/webhook-endpoints/${endpoint.id}`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.disabledAt).toEqual(expect.any(String));
    const second = await h.paidCharge(merchant);
    await waitForStatus(merchant.client, second.id, 'approved');
    const marker = await h.marker(merchant, receiver);
    expect(receiver.received.map(eventOf)).toEqual([eventOf(delivered!), marker]);
    expect(await h.deliveries(`transactionId=${second.id}`)).toEqual([]);

    const retry = await admin(h.live.stack, 'POST', `/webhook-deliveries/${delivered!.headers['x-service-delivery']}/retry`);
    expect(retry.status).toBe(422);
    expect(retry.body.error.code).toBe('operation_refused');
  });

  it('pixctl registers endpoints, lists them without secrets, shows the delivery log and redelivers', async () => {
    const merchant = await createMerchant(h.live.stack);
    const receiver = await h.receiver();
    const added = await h.pixctl(['webhooks', 'add', merchant.account.id, '--url', receiver.url]);
    expect(added.code, added.stderr).toBe(0);
    const secret = /^secret\s+(whsec_[0-9a-f]{64})$/m.exec(added.stdout)?.[1];
    const endpointId = /^id\s+(whe_\S+)$/m.exec(added.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(added.stdout).toMatch(/shown only this once/);
    const listed = await h.pixctl(['webhooks', 'list', merchant.account.id]);
    expect(listed.stdout).toContain(endpointId);
    expect(listed.stdout).not.toContain(secret);

    const charge = await h.paidCharge(merchant);
    const [delivery] = await h.received(receiver, 'transaction.approved');
    verified(delivery!, secret!);
    const deliveryId = delivery!.headers['x-service-delivery'] as string;
    const log = await eventually(async () => {
      const run = await h.pixctl(['deliveries', 'list', '--transaction', charge.id]);
      return run.stdout.includes(' ok ') && run;
    });
    expect(log.stdout).toMatch(
      new RegExp(`^${deliveryId}\\s+transaction\\.approved\\s+\\S+\\s+succeeded\\s+1\\s+automatic\\s+ok\\s+200\\s`, 'm'),
    );

    const retried = await h.pixctl(['deliveries', 'retry', deliveryId]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toMatch(/\s2\s+manual\s+ok\s+200\s/);
    expect(receiver.received).toHaveLength(2);
    const asJson = JSON.parse((await h.pixctl(['deliveries', 'show', deliveryId, '--json'])).stdout);
    expect(asJson).toMatchObject({ id: deliveryId, attemptCount: 2 });

    const noFilter = await h.pixctl(['deliveries', 'list']);
    expect(noFilter.code).toBe(2);
    const disabled = await h.pixctl(['webhooks', 'disable', endpointId!, '--json']);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ id: endpointId, disabledAt: expect.any(String) });
  });

  it('the delivery log needs a filter', async () => {
    const res = await admin(h.live.stack, 'GET', '/webhook-deliveries');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(await h.deliveries('eventId=evt_unknown')).toEqual([]);
  });
});

describe('webhooks: SSRF guard (WEBHOOK_ALLOW_INSECURE=false)', () => {
  const h = harness({ WEBHOOK_ALLOW_INSECURE: 'false', WEBHOOK_RETRY_INITIAL_MS: '100', WEBHOOK_RETRY_MAX_MS: '100' });

  it('refuses http and non-public addresses at registration, accepts a public https address', async () => {
    const merchant = await createMerchant(h.live.stack);
    const refused = [
      'http://93.184.216.34/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://224.0.0.1/hook',
      'https://[::1]/hook',
      'https://[fe80::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://2130706433/hook',
    ];
    for (const url of refused) {
      const res = await admin(h.live.stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const stored = await h.live.sql`select id from webhook_endpoints where account_id = ${merchant.account.id}`;
    expect(stored).toHaveLength(0);
    const accepted = await h.registerEndpoint(merchant.account.id, 'https://93.184.216.34/hook');
    expect(accepted.url).toBe('https://93.184.216.34/hook');
  });

  it('re-checks the resolved address when connecting: an endpoint whose host now resolves to loopback is never contacted', async () => {
    const merchant = await createMerchant(h.live.stack);
    const receiver = await h.receiver();
    // As if the host had resolved to a public address at registration and now answers 127.0.0.1 (DNS rebinding).
    const rebound = receiver.url.replace('http://127.0.0.1', 'https://localhost');
    await h.live
      .sql`insert into webhook_endpoints (id, account_id, url, secret) values (${`whe_rebound_${merchant.account.id}`}, ${merchant.account.id}, ${rebound}, 'whsec_test')`;
    const charge = await h.paidCharge(merchant);

    const record = await h.waitForDelivery(`transactionId=${charge.id}`, 'failed', 30_000);
    expect(record.attempts).toHaveLength(8);
    for (const attempt of record.attempts)
      expect(attempt).toMatchObject({ success: false, statusCode: null, errorCode: 'address_refused' });
    expect(receiver.received).toHaveLength(0);
  });
});
