// The PSP side of reconciliation (books.md, "Reconciliation against the PSP"): a day's received Pix
// (GET /pix?inicio&fim) and envios (Efí's GET /v2/gn/pix/enviados?inicio&fim) read page by page
// through BcbApiPixRecords, the route's records reconciliation reads, from the conformance fake PSP
// (mTLS, OAuth, every request checked against the standard) running as a process of its own, whose
// lists are seeded with RECEIVED Pix (one in 20 with a devolução) and SENT envios over that day,
// generated when read. Prints the time, records per second, the CPU each side spent (on a loaded machine
// the time tells less) and this process's peak RSS: what is read is counted and summed, never kept, so
// the peak is the reader's whatever the day's size. The counts and sums are checked against the seeded ones.
//
//   node --import tsx bench/reconcile-source.ts [RECEIVED=1000000] [SENT=100000]
import { loadRoutesFile } from '../src/config/routes-file.js';
import { PspClient } from '../src/pix-routes/bcb-api-pix/client.js';
import { BcbApiPixRecords } from '../src/pix-routes/bcb-api-pix/records.js';
import type { RouteRecords } from '../src/pix-routes/route-records.js';
import { seededEnvio, seededReceived, type SeededWindow } from '../test/helpers/fake-psp/lists.js';
import { spawnProcess, stopProcess } from './child-process.js';
import { printTable, processCpuMs } from './measure.js';

const RECEIVED = Number(process.argv[2] ?? 1_000_000);
const SENT = Number(process.argv[3] ?? 100_000);
const DEVOLUCAO_EVERY = 20;
/** A day in America/Sao_Paulo (UTC−3), as a daily run reads it. */
const DAY = { from: new Date('2031-03-10T03:00:00.000Z'), to: new Date('2031-03-11T03:00:00.000Z') };
const RECEIVED_WINDOW: SeededWindow = { ...DAY, count: RECEIVED, seed: 1, devolucaoEvery: DEVOLUCAO_EVERY };
const SENT_WINDOW: SeededWindow = { ...DAY, count: SENT, seed: 2 };

const mb = (kb: number) => (kb / 1024).toFixed(0);

interface Read {
  records: number;
  pages: number;
  cents: number;
  refunds: number;
  ms: number;
}

async function readAll<T extends { amountCents: number }>(pages: AsyncIterable<T[]>, refundsOf: (record: T) => number): Promise<Read> {
  const read: Read = { records: 0, pages: 0, cents: 0, refunds: 0, ms: 0 };
  const started = performance.now();
  for await (const page of pages) {
    read.pages += 1;
    read.records += page.length;
    for (const record of page) {
      read.cents += record.amountCents;
      read.refunds += refundsOf(record);
    }
  }
  read.ms = performance.now() - started;
  return read;
}

/** What the fake's seeding holds: the count, the sum of amounts and the devoluções of a window. */
function expected(window: SeededWindow, amountOf: (index: number) => string, refunds: (index: number) => number) {
  let cents = 0;
  let devolucoes = 0;
  for (let index = 0; index < window.count; index += 1) {
    cents += Math.round(Number(amountOf(index)) * 100);
    devolucoes += refunds(index);
  }
  return { records: window.count, cents, refunds: devolucoes };
}

async function main() {
  const iso = (window: SeededWindow) => ({ ...window, from: window.from.toISOString(), to: window.to.toISOString() });
  let routesFile: string | undefined;
  const fake = await spawnProcess(
    ['bench/fake-psp-process.ts'],
    { FAKE_PSP_SEEDED: JSON.stringify({ received: [iso(RECEIVED_WINDOW)], envios: [iso(SENT_WINDOW)] }) },
    async (output) => (routesFile = /routes file: (\S+)\n/.exec(output())?.[1]) !== undefined,
  );
  const [route] = loadRoutesFile(routesFile!);
  const client = new PspClient(route!);
  try {
    const records: RouteRecords = new BcbApiPixRecords(client, { sendBaseUrl: route!.send!.baseUrl });
    const rssBeforeKb = process.memoryUsage().rss / 1024;
    const fakeCpuBefore = processCpuMs(fake.pid!);
    const readerCpuBefore = process.cpuUsage();
    const received = await readAll(records.received(DAY.from, DAY.to), (record) => record.refunds.length);
    const sent = await readAll(records.sent(DAY.from, DAY.to), () => 0);
    const peakKb = process.resourceUsage().maxRSS;
    const fakeCpuMs = processCpuMs(fake.pid!) - fakeCpuBefore;
    const readerCpu = process.cpuUsage(readerCpuBefore);

    const wanted = {
      received: expected(
        RECEIVED_WINDOW,
        (index) => seededReceived(RECEIVED_WINDOW, index, route!.pixKey).valor,
        (index) => (index % DEVOLUCAO_EVERY === 0 ? 1 : 0),
      ),
      sent: expected(
        SENT_WINDOW,
        (index) => seededEnvio(SENT_WINDOW, index, route!.pixKey).valor,
        () => 0,
      ),
    };
    const got = {
      received: { records: received.records, cents: received.cents, refunds: received.refunds },
      sent: { records: sent.records, cents: sent.cents, refunds: sent.refunds },
    };
    const total: Read = {
      ...received,
      records: received.records + sent.records,
      pages: received.pages + sent.pages,
      ms: received.ms + sent.ms,
    };
    const row = (label: string, read: Read) => [
      label,
      String(read.records),
      String(read.pages),
      (read.ms / 1000).toFixed(1),
      Math.round((read.records * 1000) / read.ms).toLocaleString('en-US'),
    ];
    process.stdout.write('PSP records of a day through BcbApiPixRecords (1000 a page), from the fake PSP in its own process\n');
    printTable(['', 'records', 'pages', 's', 'records/s'], [row('received', received), row('sent', sent), row('total', total)]);
    process.stdout.write(
      `\n${received.refunds} devoluções among the received Pix\n` +
        `reader RSS before ${mb(rssBeforeKb)} MB, peak ${mb(peakKb)} MB (the process's whole life)\n` +
        `CPU while read: the reader ${((readerCpu.user + readerCpu.system) / 1e6).toFixed(1)} s, the fake PSP ${(fakeCpuMs / 1000).toFixed(1)} s, ` +
        `in ${(total.ms / 1000).toFixed(1)} s\n`,
    );
    if (JSON.stringify(got) !== JSON.stringify(wanted)) {
      process.stdout.write(`MISMATCH: read ${JSON.stringify(got)}, seeded ${JSON.stringify(wanted)}\n`);
      process.exitCode = 1;
    }
  } finally {
    await client.close();
    await stopProcess(fake);
  }
}

await main();
