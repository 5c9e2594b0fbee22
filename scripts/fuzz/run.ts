// Fuzzes the public API against the OpenAPI document it serves, with Schemathesis (pinned, installed
// into .tools/ by scripts/install-schemathesis.mjs):
//
//   npm run fuzz            about 5 minutes
//   npm run fuzz 120        a time budget in seconds (CI runs 120)
//
// It starts its own engine (bench/engine.ts: embedded Temporal dev server, fresh database dropped at the
// end), creates a verified merchant funded by paid charges so that transfers can succeed, and API keys
// with every permission that the hooks (hooks.py) rotate per request so that no key's quota answers 429
// in place of the operation. Then the explicit hostile examples (issue 17), and Schemathesis with every
// check, positive and negative generation, every phase, within the budget. Prints the figures and exits
// non-zero on any failure, and when Schemathesis checked no test case (scripts/fuzz/summary.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEngine, type BenchEngine } from '../../bench/engine.js';
import { pngBomb } from '../../test/helpers/hostile-images.js';
import { SCHEMATHESIS_VERSION, ST } from '../install-schemathesis.mjs';
import { schemathesisCases, schemathesisFailures } from './summary.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_SECONDS = 300;
/** Enough keys that Schemathesis at full speed spends less than 100 requests per key per minute. */
const KEYS = 60;
const PERMISSIONS = ['payments:write', 'transactions:read', 'transfers:write', 'balance:read'];
const PAYER = { name: 'Maria Souza', document: '52998224725' };

interface Answer {
  status: number;
  body: any;
}

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown, raw?: string): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** A verified merchant with `count` keys of every permission, funded with two paid charges. */
async function fundedMerchant(engine: BenchEngine, api: string, count: number): Promise<string[]> {
  const adminUrl = `http://127.0.0.1:${engine.adminPort}/admin`;
  const admin = (method: string, path: string, body?: unknown) => call(`${adminUrl}${path}`, method, engine.adminHeaders, body);
  const account = expectStatus(
    await admin('POST', '/accounts', { name: 'Loja Fuzz', document: '11222333000181', email: 'fuzz@example.com', kycStatus: 'approved' }),
    201,
    'account creation',
  );
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    keys.push(
      expectStatus(await admin('POST', `/accounts/${account.body.data.id}/api-keys`, { permissions: PERMISSIONS }), 201, 'key creation')
        .body.data.key,
    );
  }
  const auth = { authorization: `Bearer ${keys[0]}` };
  for (let i = 0; i < 2; i++) {
    const charge = await call(
      `${api}/transactions`,
      'POST',
      { ...auth, 'idempotency-key': `fuzz-funding-${i}` },
      { amount: 10_000, payer: PAYER },
    );
    expectStatus(charge, 201, 'funding charge');
    expectStatus(await admin('POST', `/simulator/charges/${charge.body.data.id}/pay`), 200, 'funding payment');
  }
  return keys;
}

/** Hostile inputs every creation must refuse with a 400 (issue 17), whatever Schemathesis generates. */
function explicitExamples(api: string, key: string) {
  const headers = () => ({ authorization: `Bearer ${key}`, 'idempotency-key': `fuzz-explicit-${randomBytes(6).toString('hex')}` });
  const nested = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  return [
    {
      name: 'QR-image bomb (8000×8000 1-bit PNG) as a qr_code destination',
      send: () => call(`${api}/transfers`, 'POST', headers(), { amount: 10, destination: { type: 'qr_code', value: pngBomb(8000) } }),
    },
    { name: 'JSON nested 5000 deep, POST /transactions', send: () => call(`${api}/transactions`, 'POST', headers(), undefined, nested) },
    { name: 'JSON nested 5000 deep, POST /transfers', send: () => call(`${api}/transfers`, 'POST', headers(), undefined, nested) },
    {
      name: 'webhookUrl https://[::127.0.0.1]/ (IPv4-compatible IPv6 of loopback)',
      send: () => call(`${api}/transactions`, 'POST', headers(), { amount: 10, payer: PAYER, webhookUrl: 'https://[::127.0.0.1]/' }),
    },
  ];
}

async function runExplicitExamples(api: string, key: string): Promise<{ cases: number; failures: string[] }> {
  const failures: string[] = [];
  const examples = explicitExamples(api, key);
  for (const example of examples) {
    const started = Date.now();
    const answer = await example.send();
    const ms = Date.now() - started;
    const ok = answer.status === 400 && answer.body?.success === false;
    process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} ${example.name}: ${answer.status} ${answer.body?.error?.code ?? ''} in ${ms} ms\n`);
    if (!ok) failures.push(`${example.name}: expected 400, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { cases: examples.length, failures };
}

/**
 * Runs Schemathesis with its report kept in `logFile` rather than passed through: its pytest-style footer
 * ("2 warnings in 120.02s") would read as an empty pytest run to whoever scans the output for a test summary.
 */
function runSchemathesis(api: string, keys: string[], seconds: number, logFile: string): Promise<{ exitCode: number; output: string }> {
  const args = [
    '--config-file',
    join(HERE, 'schemathesis.toml'),
    'run',
    `${api}/openapi.json`,
    '--url',
    api,
    '--checks',
    'all',
    '--mode',
    'all',
    '--max-time',
    String(seconds),
    '--request-timeout',
    '15',
    '--generation-database',
    'none',
    '--no-color',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ST, args, {
      cwd: HERE,
      env: { ...process.env, FUZZ_API_KEYS: keys.join(','), SCHEMATHESIS_HOOKS: 'hooks', PYTHONPATH: HERE },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      writeFileSync(logFile, output);
      resolve({ exitCode: code ?? 1, output });
    });
  });
}

async function main() {
  const seconds = Number(process.argv[2] ?? DEFAULT_SECONDS);
  if (!(seconds > 0)) throw new Error(`usage: npm run fuzz [SECONDS] (got ${process.argv[2]})`);
  if (!existsSync(ST)) throw new Error(`Schemathesis ${SCHEMATHESIS_VERSION} is not installed: run node scripts/install-schemathesis.mjs`);
  // Webhook receivers must be public HTTPS, as in production: the [::127.0.0.1] example must be refused.
  const engine = await startEngine({ LOG_LEVEL: 'error', WEBHOOK_ALLOW_INSECURE: 'false' });
  try {
    const api = `http://127.0.0.1:${engine.port}/v1`;
    const keys = await fundedMerchant(engine, api, KEYS);
    process.stdout.write(`Engine at ${api}; ${keys.length} API keys rotated per request\nExplicit hostile examples:\n`);
    const explicit = await runExplicitExamples(api, keys[0]!);
    const logFile = join(mkdtempSync(join(tmpdir(), 'pix-fuzz-')), 'schemathesis.log');
    process.stdout.write(`Schemathesis ${SCHEMATHESIS_VERSION}, every check, positive and negative, ${seconds} s (report: ${logFile})\n`);
    const st = await runSchemathesis(api, keys, seconds, logFile);
    const cases = schemathesisCases(st.output);
    const stFailures = schemathesisFailures(st.exitCode, cases);
    if (stFailures.length > 0) process.stdout.write(st.output.replace(/\n=+ [^\n]* in [\d.]+s =+\n?/, '\n'));
    const failures = [...stFailures, ...explicit.failures];
    const failed = failures.length > 0;
    process.stdout.write(
      `\nfuzz: ${cases?.generated ?? '?'} Schemathesis cases, ${cases?.checked ?? '?'} checked, ` +
        `${cases?.uniqueFailures ?? '?'} unique failures (exit ${st.exitCode}); ` +
        `${explicit.cases} explicit examples, ${explicit.failures.length} failures → ${failed ? 'FAILED' : 'passed'}\n`,
    );
    for (const failure of failures) process.stdout.write(`  ${failure}\n`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await engine.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`fuzz failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
