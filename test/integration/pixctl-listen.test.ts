// pixctl listen as a developer runs it: the real bin/pixctl.js in a child process, reading the admin
// API's event stream of a real engine and forwarding each event to a local receiver as a signed webhook
// delivery; across a restart of the engine it reconnects with Last-Event-ID and misses nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, payCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { ADMIN_TOKEN, http, spawnEngine, startStack, waitReady, type Stack } from '../helpers/stack.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'pixctl.js');

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let stack: Stack;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

function receive(): Promise<void> {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url!, headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    receiver.listen(0, '127.0.0.1', () => {
      receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/pix`;
      resolve();
    }),
  );
}

/** `pixctl listen` running in the background, its output collected. */
function startListen(accountId: string, dataDir: string): { child: ChildProcess; output: () => string } {
  const env = { PATH: process.env.PATH!, PIX_ADMIN_URL: stack.adminUrl.replace(/\/admin$/, ''), ADMIN_TOKEN, DATA_DIR: dataDir };
  const child = spawn(process.execPath, [BIN, 'listen', '--account', accountId, '--forward-to', receiverUrl], { cwd: '/', env });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  return { child, output: () => out };
}

const readyCount = (output: string) => output.split('\n').filter((line) => line.includes('Ready')).length;

function verified(delivery: Received, secret: string): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['x-service-signature'])) ?? [];
  return v1 === createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex');
}

beforeAll(async () => {
  stack = await startStack();
  await receive();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  receiver?.close();
});

describe('GET /admin/events/stream', () => {
  it('refuses an unknown account, a Last-Event-ID that is not its own, and a caller without the token', async () => {
    const unknown = await http('GET', `${stack.adminUrl}/events/stream?accountId=acc_nope`, { token: ADMIN_TOKEN });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'not_found']);
    const { account } = await createMerchant(stack);
    const forged = await http('GET', `${stack.adminUrl}/events/stream?accountId=${account.id}`, {
      token: ADMIN_TOKEN,
      headers: { 'last-event-id': "1' or 1=1" },
    });
    expect([forged.status, forged.body.error?.code]).toEqual([400, 'invalid_request']);
    const anonymous = await http('GET', `${stack.adminUrl}/events/stream?accountId=${account.id}`);
    expect(anonymous.status).toBe(401);
    const noAccount = await http('GET', `${stack.adminUrl}/events/stream`, { token: ADMIN_TOKEN });
    expect([noAccount.status, noAccount.body.error?.param]).toEqual([400, '/accountId']);
  });
});

describe('pixctl listen', () => {
  it('forwards each event as a signed delivery, keeps its secret, and after an engine restart misses nothing', async () => {
    const merchant = await createMerchant(stack);
    const dataDir = await mkdtemp(join(tmpdir(), 'pixctl-listen-'));
    const listen = startListen(merchant.account.id, dataDir);
    try {
      await eventually(async () => readyCount(listen.output()) === 1, 20_000);
      const secret = /Signing secret: (whsec_[0-9a-f]{48})/.exec(listen.output())?.[1];
      expect(secret, listen.output()).toBeDefined();
      expect((await stat(join(dataDir, 'listen-secrets.json'))).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(join(dataDir, 'listen-secrets.json'), 'utf8'))).toEqual({ [merchant.account.id]: secret });

      // A real endpoint of the account receives the same events, so the forwarded body can be compared with it.
      const endpoint = await http('POST', `${stack.adminUrl}/accounts/${merchant.account.id}/webhook-endpoints`, {
        token: ADMIN_TOKEN,
        body: { url: `${receiverUrl}/real` },
      });
      expect(endpoint.status, endpoint.text).toBe(201);

      const first = await createCharge(merchant.client, { amount: 10 });
      expect((await payCharge(stack, first.id)).status).toBe(200);
      const forwarded = () => received.filter((d) => d.path === '/pix');
      const approved = (id: string) => forwarded().find((d) => JSON.parse(d.body).id === `evt_${id}_approved`);
      const real = (id: string) => received.find((d) => d.path === '/pix/real' && JSON.parse(d.body).id === `evt_${id}_approved`);
      await eventually(async () => approved(first.id) !== undefined, 20_000);
      const delivery = approved(first.id)!;
      expect(verified(delivery, secret!)).toBe(true);
      expect(delivery.headers['x-service-event']).toBe('transaction.approved');
      expect(delivery.headers['x-service-delivery']).toMatch(/^whd_[0-9a-f]{32}$/);
      // Byte for byte the body the account's real webhook delivery of the event carries.
      await eventually(async () => real(first.id) !== undefined, 20_000);
      expect(delivery.body).toBe(real(first.id)!.body);
      expect(JSON.parse(delivery.body)).toMatchObject({
        event: 'transaction.approved',
        data: { id: first.id, status: 'approved', amount: 10 },
      });
      const line = new RegExp(`transaction\\.approved evt_${first.id}_approved → 204`);
      await eventually(async () => line.test(listen.output()), 10_000);

      // The engine restarts; events made before the listener is back reach it once it reconnects.
      await stack.processes[0]!.stop();
      stack.processes.splice(0, 1, spawnEngine('all', stack.env));
      await waitReady(stack.rootUrl, stack.processes[0]!);
      const second = await createCharge(merchant.client, { amount: 20 });
      expect((await payCharge(stack, second.id)).status).toBe(200);
      await eventually(async () => approved(second.id) !== undefined, 30_000);
      expect(readyCount(listen.output())).toBeGreaterThanOrEqual(2);
      expect(verified(approved(second.id)!, secret!)).toBe(true);
      expect(forwarded().filter((d) => JSON.parse(d.body).id === `evt_${first.id}_approved`)).toHaveLength(1);
    } finally {
      listen.child.kill('SIGTERM');
    }

    // Run again, it signs with the same secret.
    const again = startListen(merchant.account.id, dataDir);
    try {
      await eventually(async () => readyCount(again.output()) === 1, 20_000);
      expect(again.output()).toContain(JSON.parse(await readFile(join(dataDir, 'listen-secrets.json'), 'utf8'))[merchant.account.id]);
    } finally {
      again.child.kill('SIGTERM');
    }
  }, 180_000);
});
