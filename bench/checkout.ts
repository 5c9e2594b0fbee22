// The payer's page (design/checkout-page.md): what one page costs a payer's browser, and how many open
// pages with a live status one engine holds before its /healthz p99 passes 100 ms, with the status
// by polling and by server-sent events.
//
//   npm run bench:checkout [-- poll|sse]      (both by default)
//
// Starts its own engine (`src/main.ts all`, TRUST_PROXY=true so each simulated page has its own
// address) on a fresh database, makes 20 charges, then:
//   1. in headless Chromium (Debian's chromium, playwright-core): the page's bytes and requests until
//      it is shown, its first contentful paint, and the time from the charge's approval to the page
//      saying "Pagamento confirmado";
//   2. per live-status mode, pages are opened in steps (a worker thread: bench/checkout-pages.mjs),
//      and after 5 s at each step 300 sequential GET /healthz measure the p99; it stops at the
//      first step over 100 ms. The load generator shares the machine's cores with the engine.
import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Response } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.js';
import { startEngine } from './engine.js';
import { jsonCalls, printTable, quantile } from './measure.js';

type LiveMode = 'poll' | 'sse';
/** What bench/checkout-pages.mjs is given, and answers after each change of the number of open pages. */
interface PagesInput {
  port: number;
  tokens: string[];
  mode: LiveMode;
}
interface PagesReport {
  open: number;
  answers: number;
  errors: number;
}

const ARG = process.argv[2];
const MODES: LiveMode[] = ARG === 'poll' || ARG === 'sse' ? [ARG] : ['poll', 'sse'];
const STEPS = [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800];
const P99_LIMIT_MS = 100;
const SETTLE_MS = 5000;
const CHARGES = 20;

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const call = jsonCalls(agent);

async function healthP99(port: number): Promise<number> {
  const health = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  for (let i = 0; i < 300; i += 1) {
    ms.push((await jsonCalls(health)(port, 'GET', '/healthz')).ms);
    await sleep(10);
  }
  health.destroy();
  return quantile(
    ms.sort((a, b) => a - b),
    0.99,
  );
}

interface Charge {
  id: string;
  token: string;
}

async function browserFigures(port: number, adminPort: number, admin: Record<string, string>, key: string, charge: Charge) {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
    const loaded: Array<{ url: string; bytes: Promise<number> }> = [];
    const live = (url: string) => /\/(events|status)$/.test(url);
    page.on('response', (response: Response) => {
      if (!live(response.url())) loaded.push({ url: response.url(), bytes: response.body().then((b) => b.length) });
    });
    const started = Date.now();
    await page.goto(`http://127.0.0.1:${port}/pay/${charge.token}`, { waitUntil: 'load' });
    const loadMs = Date.now() - started;
    const fcp = await page.evaluate<number>("performance.getEntriesByName('first-contentful-paint')[0].startTime");
    const bytes = (await Promise.all(loaded.map((r) => r.bytes))).reduce((a, b) => a + b, 0);
    await sleep(1500); // the live status is up
    await call(adminPort, 'POST', `/admin/simulator/charges/${charge.id}/pay`, admin);
    await page.waitForFunction(() => (globalThis as any).document.getElementById('status').textContent === 'Pagamento confirmado', null, {
      timeout: 10_000,
      polling: 20,
    });
    const flippedAt = Date.now();
    const approved = await call(port, 'GET', `/v1/transactions/${charge.id}`, { authorization: `Bearer ${key}` });
    return {
      requests: loaded.length,
      bytes,
      loadMs,
      firstContentfulPaintMs: Math.round(fcp),
      approvalToPaidMs: flippedAt - Date.parse(approved.body.data.approvedAt),
    };
  } finally {
    await browser.close();
  }
}

async function capacity(port: number, tokens: string[], mode: LiveMode) {
  const worker = new Worker(new URL('./checkout-pages.mjs', import.meta.url), {
    workerData: { port, tokens, mode } satisfies PagesInput,
  });
  const report = (pages: number) =>
    new Promise<PagesReport>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(pages);
    });
  const rows: string[][] = [];
  let held = 0;
  try {
    rows.push([mode, '0', (await healthP99(port)).toFixed(1), '-', '-']);
    for (const pages of STEPS) {
      const before = await report(pages);
      const from = Date.now();
      await sleep(SETTLE_MS);
      const p99 = await healthP99(port);
      const after = await report(pages);
      const seconds = (Date.now() - from) / 1000;
      rows.push([
        mode,
        String(pages),
        p99.toFixed(1),
        ((after.answers - before.answers) / seconds).toFixed(0),
        String(after.errors - before.errors),
      ]);
      console.error(`${mode}: ${pages} pages, /healthz p99 ${p99.toFixed(1)} ms`);
      if (p99 > P99_LIMIT_MS) break;
      held = pages;
    }
  } finally {
    await report(0);
    await worker.terminate();
  }
  return { rows, held };
}

async function main() {
  const engine = await startEngine({
    TRUST_PROXY: 'true',
    HTTP_MAX_CONNECTIONS_PER_IP: '1000000',
    CHECKOUT_EVENT_STREAMS_MAX: '1000000',
    CHARGE_TTL_SECONDS: '3600',
  });
  const { port, adminPort, adminHeaders } = engine;
  try {
    const account = await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
      name: 'Padaria Bench',
      document: '52998224725',
      email: 'bench@example.com',
      kycStatus: 'approved',
    });
    const key = (
      await call(adminPort, 'POST', `/admin/accounts/${account.body.data.id}/api-keys`, adminHeaders, {
        permissions: ['payments:write', 'transactions:read'],
      })
    ).body.data.key as string;
    const charges: Charge[] = [];
    for (let i = 0; i <= CHARGES; i += 1) {
      const created = await call(
        port,
        'POST',
        '/v1/transactions',
        { authorization: `Bearer ${key}`, 'idempotency-key': `bench-${i}` },
        {
          amount: 149.9,
          description: `Pedido ${i}`,
          payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
        },
      );
      if (created.status !== 201) throw new Error(`charge creation answered ${created.status}`);
      charges.push({ id: created.body.data.id, token: new URL(created.body.data.checkoutUrl).pathname.split('/')[2]! });
    }

    const page = await browserFigures(port, adminPort, adminHeaders, key, charges.pop()!);
    console.log('One page in headless Chromium (375 px, no load on the engine):');
    printTable(
      ['requests until shown', 'bytes', 'load (ms)', 'first contentful paint (ms)', 'approval to "Pagamento confirmado" (ms)'],
      [
        [
          String(page.requests),
          String(page.bytes),
          String(page.loadMs),
          String(page.firstContentfulPaintMs),
          String(page.approvalToPaidMs),
        ],
      ],
    );

    const tokens = charges.map((c) => c.token);
    const rows: string[][] = [];
    const held: string[] = [];
    for (const mode of MODES) {
      const result = await capacity(port, tokens, mode);
      rows.push(...result.rows);
      held.push(`${mode}: ${result.held} open pages with /healthz p99 <= ${P99_LIMIT_MS} ms`);
    }
    console.log(`\nOpen pages with a live status (each its own address; ${SETTLE_MS / 1000} s at each step, then 300 GET /healthz):`);
    printTable(['mode', 'open pages', '/healthz p99 (ms)', 'status answers/s', 'errors'], rows);
    console.log(`\n${held.join('\n')}`);
  } finally {
    agent.destroy();
    await engine.stop();
  }
}

await main();
