// npm run dev: `npm start` with a laptop's conveniences, never for production. Webhooks may go to http
// and loopback receivers (WEBHOOK_ALLOW_INSECURE=true); an admin token is made on first run; a demo
// account (KYC approved, simulator route) with an API key of every permission is created through the
// admin API once the engine is ready. All three are kept in DATA_DIR/dev.json (mode 0600) and reused by
// the next run (the account and key are made again if the database no longer has them). After the
// engine's ready lines it prints the key, the token and a curl that creates a first charge.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PERMISSIONS } from './accounts/permissions.js';
import { loadConfig } from './config/config.js';

interface DevState {
  adminToken: string;
  accountId?: string;
  apiKey?: string;
}

const DEMO_ACCOUNT = {
  name: 'Loja Demo',
  document: '11.222.333/0001-81',
  email: 'demo@example.com',
  kycStatus: 'approved',
  route: 'simulator',
  allowDuplicate: true,
};

const dataDir = process.env.DATA_DIR || '.data';
const stateFile = join(dataDir, 'dev.json');

async function saved(): Promise<DevState | null> {
  try {
    return JSON.parse(await readFile(stateFile, 'utf8')) as DevState;
  } catch {
    return null;
  }
}

async function save(state: DevState): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

async function call(url: string, token: string, method = 'GET', body?: unknown): Promise<{ status: number; data: any }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json().catch(() => null)) as { data?: unknown } | null;
  return { status: res.status, data: envelope?.data };
}

async function waitReady(rootUrl: string): Promise<void> {
  for (;;) {
    const ready = await fetch(`${rootUrl}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return;
    await sleep(200);
  }
}

/** The saved account and key when the database still has them, else new ones made through the admin API. */
async function demoAccount(state: DevState, apiUrl: string, adminUrl: string): Promise<Required<DevState>> {
  if (state.accountId && state.apiKey) {
    const [account, balance] = await Promise.all([
      call(`${adminUrl}/accounts/${state.accountId}`, state.adminToken),
      call(`${apiUrl}/balance`, state.apiKey),
    ]);
    if (account.status === 200 && balance.status === 200) return state as Required<DevState>;
  }
  const account = await call(`${adminUrl}/accounts`, state.adminToken, 'POST', DEMO_ACCOUNT);
  if (account.status !== 201) throw new Error(`the demo account was not created: HTTP ${account.status}`);
  const key = await call(`${adminUrl}/accounts/${account.data.id}/api-keys`, state.adminToken, 'POST', { permissions: [...PERMISSIONS] });
  if (key.status !== 201) throw new Error(`the demo API key was not created: HTTP ${key.status}`);
  return { adminToken: state.adminToken, accountId: account.data.id, apiKey: key.data.key };
}

const state: DevState = (await saved()) ?? { adminToken: randomBytes(32).toString('hex') };
process.env.ADMIN_TOKEN ||= state.adminToken;
process.env.WEBHOOK_ALLOW_INSECURE ||= 'true';
state.adminToken = process.env.ADMIN_TOKEN;
await save(state);

const config = loadConfig();
if (config.port === 0 || config.adminPort === 0) throw new Error('npm run dev needs fixed ports: PORT and ADMIN_PORT must not be 0');
const rootUrl = `http://127.0.0.1:${config.port}`;
const adminUrl = `http://127.0.0.1:${config.adminPort}/admin`;

await import('./main.js');
await waitReady(rootUrl);
const demo = await demoAccount(state, `${rootUrl}/v1`, adminUrl);
await save(demo);

process.stdout.write(
  [
    '',
    '  Development conveniences (npm run dev; never in production): http webhooks allowed, kept in ' + stateFile,
    `  Demo account   ${demo.accountId}  (KYC approved, simulator route)`,
    `  API key        ${demo.apiKey}  (every permission)`,
    `  Admin token    ${demo.adminToken}`,
    '',
    '  A first charge:',
    `  curl -s -X POST http://localhost:${config.port}/v1/transactions -H "Authorization: Bearer ${demo.apiKey}" -H "Idempotency-Key: primeira-cobranca" -H "Content-Type: application/json" -d '{"amount":10,"payer":{"name":"Maria Souza","document":"529.982.247-25"}}'`,
    '',
    '  Pay it at the simulator:',
    `  curl -s -X POST ${adminUrl}/simulator/charges/<txn_…>/pay -H "Authorization: Bearer ${demo.adminToken}"`,
    '',
    `  Its webhooks on this laptop:  ADMIN_TOKEN=${demo.adminToken} npm run pixctl -- listen --account ${demo.accountId} --forward-to http://127.0.0.1:9000/pix`,
    '',
  ].join('\n') + '\n',
);
