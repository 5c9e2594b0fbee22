// Statements (books.md, "Statements") on the real stack: money moved through the API and the simulated
// network (a paid charge with fee and split, one whose split takes all its net, a transfer sent and one
// failed, MEDs retained, released and returned), then read back from the ledger by the admin route (JSON
// and CSV), by GET /v1/statement page by page, and by pixctl. Every statement chains: each balance is the
// one before plus the entry, and the opening balance plus the entries is the closing balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { customerAccount } from '../../src/ledger/accounts.js';
import { post } from '../../src/ledger/post.js';
import { txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { client, createKey, createMerchant } from '../helpers/fixtures.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { liveStack } from '../helpers/live-stack.js';
import { runPixctl } from '../helpers/pixctl-run.js';
import { admin, ADMIN_TOKEN, http, startStack, type HttpResult, type Stack } from '../helpers/stack.js';
import { balanceOf, completeTransferOnceArrived, cpfKeyBody, postTransfer } from '../helpers/transfers.js';

const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

interface Entry {
  at: string;
  kind: string;
  transactionId: string | null;
  description: string;
  amount: number;
  balanceAfter: number;
}

const cents = (reais: number) => Math.round(reais * 100);
const query = (from: Date, to: Date, extra: Record<string, string> = {}) =>
  new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), ...extra }).toString();

/** The database's clock: the ledger dates postings by it. */
async function dbNow(sql: Sql): Promise<Date> {
  const [row] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
  return row!.now;
}

function adminStatement(stack: Stack, accountId: string, from: Date, to: Date, accept?: string): Promise<HttpResult> {
  return http('GET', `${stack.adminUrl}/accounts/${accountId}/statement?${query(from, to)}`, {
    token: ADMIN_TOKEN,
    headers: accept ? { accept } : {},
  });
}

async function statementOf(
  stack: Stack,
  accountId: string,
  from: Date,
  to: Date,
): Promise<{ openingBalance: number; closingBalance: number; entries: Entry[] }> {
  const res = await adminStatement(stack, accountId, from, to);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** Each balance is the one before plus its entry; the last one is the closing balance. */
function expectChained(statement: { openingBalance: number; closingBalance: number; entries: Entry[] }): void {
  let balance = cents(statement.openingBalance);
  for (const entry of statement.entries) {
    balance += cents(entry.amount);
    expect(cents(entry.balanceAfter), `${entry.kind} ${entry.transactionId}`).toBe(balance);
  }
  expect(cents(statement.closingBalance)).toBe(balance);
}

const shape = (entries: Entry[]) => entries.map((e) => [e.kind, e.transactionId, e.amount, e.balanceAfter]);

describe('statements of money moved through the API', () => {
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let recipient: Awaited<ReturnType<typeof createMerchant>>;
  let other: Awaited<ReturnType<typeof createMerchant>>;
  let start: Date;
  let middle: Date;
  let end: Date;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { stack, sql } = live;
    merchant = await createMerchant(stack, { fees: { charge: { fixed: 1, percent: 1 }, transfer: { fixed: 0.5, percent: 1.25 } } });
    recipient = await createMerchant(stack);
    other = await createMerchant(stack);
    start = await dbNow(sql);

    // 100.00, fee 1.00 + 1 % = 2.00, 10.00 to the recipient: net 88.00.
    const withSplit = await createCharge(merchant.client, { amount: 100, split: [{ recipient: recipient.account.id, amount: 10 }] });
    // 50.00, fee 1.50, the split takes the other 48.50: net 0.
    const allSplit = await createCharge(merchant.client, { amount: 50, split: [{ recipient: recipient.account.id, amount: 48.5 }] });
    const elsewhere = await createCharge(other.client, { amount: 30 });
    // One after the other: the statement lists entries in the order they were posted, and two charges paid
    // together may settle in either order.
    for (const [charge, client] of [
      [withSplit, merchant.client],
      [allSplit, merchant.client],
      [elsewhere, other.client],
    ] as const) {
      expect((await payCharge(stack, charge.id)).status).toBe(200);
      await waitForStatus(client, charge.id, 'approved');
    }
    Object.assign(ids, { withSplit: withSplit.id, allSplit: allSplit.id, elsewhere: elsewhere.id });
    middle = await dbNow(sql);

    // 20.00 with coverFee: fee 0.50 + 1.25 % = 0.75 on top, sent.
    const sent = await postTransfer(merchant.client, cpfKeyBody({ amount: 20, coverFee: true }));
    expect(sent.status, sent.text).toBe(201);
    await completeTransferOnceArrived(stack, sent.body.data.id, 'approved');
    await waitForStatus(merchant.client, sent.body.data.id, 'approved');
    // 10.00 without coverFee: fee 0.63 inside (9.37 reaches the recipient), failed: 10.00 back.
    const failed = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }));
    expect(failed.status, failed.text).toBe(201);
    await completeTransferOnceArrived(stack, failed.body.data.id, 'failed');
    await waitForStatus(merchant.client, failed.body.data.id, 'failed');
    Object.assign(ids, { sent: sent.body.data.id, failed: failed.body.data.id });

    // A MED of 30.00 rejected (retained, then released), then one of 5.00 accepted (retained, then
    // returned from the retention: the available balance does not move again).
    for (const [amount, outcome] of [
      [30, 'rejected'],
      [5, 'accepted'],
    ] as const) {
      const med = await admin(stack, 'POST', '/simulator/meds', { transactionId: withSplit.id, amount });
      expect(med.status, med.text).toBe(201);
      expect((await admin(stack, 'POST', `/meds/${med.body.data.id}/decision`, { outcome })).status).toBe(200);
    }
    end = new Date((await dbNow(sql)).getTime() + 1);
  });

  it('shows a paid charge as its amount, minus its fee and each split share; transfers, their fees, a release and MEDs, in order, chained', async () => {
    const statement = await statementOf(live.stack, merchant.account.id, start, end);
    const { withSplit, allSplit, sent, failed } = ids;
    expect(shape(statement.entries)).toEqual([
      ['charge', withSplit, 100, 100],
      ['fee', withSplit, -2, 98],
      ['split_out', withSplit, -10, 88],
      ['charge', allSplit, 50, 138],
      ['fee', allSplit, -1.5, 136.5],
      ['split_out', allSplit, -48.5, 88],
      ['transfer', sent, -20, 68],
      ['transfer_fee', sent, -0.75, 67.25],
      ['transfer', failed, -9.37, 57.88],
      ['transfer_fee', failed, -0.63, 57.25],
      ['transfer_released', failed, 10, 67.25],
      ['med_retained', withSplit, -30, 37.25],
      ['med_released', withSplit, 30, 67.25],
      ['med_retained', withSplit, -5, 62.25],
    ]);
    expect(statement.openingBalance).toBe(0);
    expect(statement.closingBalance).toBe(62.25);
    expectChained(statement);
    expect(statement.closingBalance).toBe((await balanceOf(merchant.client)).available);
    const splitOut = statement.entries.find((e) => e.kind === 'split_out')!;
    expect(splitOut.description).toContain(recipient.account.id);
    for (const entry of statement.entries) {
      expect(entry.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(start.getTime());
      expect(Date.parse(entry.at)).toBeLessThan(end.getTime());
    }
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('opens a window with the balance at its start, and consecutive windows chain', async () => {
    const first = await statementOf(live.stack, merchant.account.id, start, middle);
    const second = await statementOf(live.stack, merchant.account.id, middle, end);
    expect([first.openingBalance, first.closingBalance, first.entries.length]).toEqual([0, 88, 6]);
    expect([second.openingBalance, second.closingBalance, second.entries.length]).toEqual([88, 62.25, 8]);
    expectChained(first);
    expectChained(second);
    expect([...first.entries, ...second.entries]).toEqual((await statementOf(live.stack, merchant.account.id, start, end)).entries);
    const empty = await statementOf(live.stack, merchant.account.id, end, end);
    expect(empty).toEqual({ openingBalance: 62.25, closingBalance: 62.25, entries: [] });
  });

  it("shows a split recipient its shares, and no account another's entries", async () => {
    const received = await statementOf(live.stack, recipient.account.id, start, end);
    expect(shape(received.entries)).toEqual([
      ['split_in', ids.withSplit, 10, 10],
      ['split_in', ids.allSplit, 48.5, 58.5],
    ]);
    expectChained(received);
    const elsewhere = await statementOf(live.stack, other.account.id, start, end);
    expect(shape(elsewhere.entries)).toEqual([['charge', ids.elsewhere, 30, 30]]);
    const merchants = await statementOf(live.stack, merchant.account.id, start, end);
    expect(merchants.entries.map((e) => e.transactionId)).not.toContain(ids.elsewhere);
  });

  it('answers CSV with Accept: text/csv: a header row, one entry per line, reais with a decimal point', async () => {
    const json = await statementOf(live.stack, merchant.account.id, start, end);
    const res = await adminStatement(live.stack, merchant.account.id, start, end, 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="statement-${merchant.account.id}.csv"`);
    const lines = res.text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe('at,kind,transactionId,description,amount,balanceAfter');
    const reais = (value: number) => (value < 0 ? '-' : '') + (Math.abs(cents(value)) / 100).toFixed(2);
    expect(lines.slice(1)).toEqual(
      json.entries.map((e) => [e.at, e.kind, e.transactionId, e.description, reais(e.amount), reais(e.balanceAfter)].join(',')),
    );
    expect(lines).toContain(`${json.entries[7]!.at},transfer_fee,${ids.sent},Tarifa da transferência Pix,-0.75,67.25`);
    expect(lines[1]).toMatch(/,charge,txn_\w+,Cobrança Pix paga,100\.00,100\.00$/);

    const empty = await adminStatement(live.stack, merchant.account.id, end, end, 'text/csv');
    expect(empty.text).toBe('at,kind,transactionId,description,amount,balanceAfter\r\n');
    // Any other Accept is answered in JSON, the envelope as ever.
    const other = await adminStatement(live.stack, merchant.account.id, start, end, 'text/html, */*;q=0.1');
    expect(other.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(other.body).toEqual({ success: true, data: json, requestId: expect.stringMatching(/^req_/) });
  });

  it('serves the account its own statement at GET /v1/statement, page by page, with balance:read only', async () => {
    const whole = await statementOf(live.stack, merchant.account.id, start, end);
    const reader = client(live.stack, (await createKey(live.stack, merchant.account.id, ['balance:read'])).key);
    const pages: Entry[][] = [];
    for (let page = 1; page <= 5; page += 1) {
      const res = await reader.get(`/statement?${query(start, end, { page: String(page), limit: '4' })}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.pagination).toEqual({ page, limit: 4, total: 14, pages: 4 });
      expect([res.body.data.openingBalance, res.body.data.closingBalance]).toEqual([0, 62.25]);
      pages.push(res.body.data.entries);
    }
    expect(pages.map((p) => p.length)).toEqual([4, 4, 4, 2, 0]);
    expect(pages.flat()).toEqual(whole.entries);

    const middlePage = await reader.get(`/statement?${query(middle, end, { limit: '3', page: '2' })}`);
    expect(middlePage.body.data.openingBalance).toBe(88);
    expect(shape(middlePage.body.data.entries)).toEqual(shape(whole.entries.slice(9, 12)));
    const byDefault = await reader.get(`/statement?${query(start, end)}`);
    expect(byDefault.body.pagination).toEqual({ page: 1, limit: 20, total: 14, pages: 1 });
    expect(byDefault.body.data).toEqual(whole);

    const received = await client(live.stack, recipient.key).get(`/statement?${query(start, end)}`);
    expect(received.body.data.entries.map((e: Entry) => e.kind)).toEqual(['split_in', 'split_in']);

    const withoutPermission = client(
      live.stack,
      (await createKey(live.stack, merchant.account.id, ['transactions:read', 'payments:write', 'transfers:write'])).key,
    );
    const refused = await withoutPermission.get(`/statement?${query(start, end)}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'permission_denied' } });
    expect(refused.body.error.message).toContain('balance:read');
  });

  it('refuses a window it cannot read with the spec envelope, and an unknown account with 404', async () => {
    const [from, to] = [start.toISOString(), end.toISOString()];
    const refusals: Array<[string, string]> = [
      [`to=${to}`, '/from'],
      [`from=${from}`, '/to'],
      [`from=2026-02-30T00:00:00Z&to=${to}`, '/from'],
      [`from=2026-01-01&to=${to}`, '/from'],
      [`from=${from}&to=2026-01-01T00:00:00`, '/to'],
      [`from=${to}&to=${from}`, '/to'],
      [`from=${from}&from=${from}&to=${to}`, '/from'],
    ];
    for (const [search, param] of refusals) {
      for (const res of [
        await http('GET', `${live.stack.adminUrl}/accounts/${merchant.account.id}/statement?${search}`, { token: ADMIN_TOKEN }),
        await merchant.client.get(`/statement?${search}`),
      ]) {
        expect(res.status, search).toBe(400);
        expect(res.body, search).toEqual({
          success: false,
          error: { code: 'invalid_request', message: expect.any(String), param },
          requestId: expect.any(String),
        });
      }
    }
    const reversed = await merchant.client.get(`/statement?from=${to}&to=${from}`);
    expect(reversed.body.error.message).toBe('to deve ser igual ou posterior a from');
    const badDate = await merchant.client.get(`/statement?from=2026-02-30T00:00:00Z&to=${to}`);
    expect(badDate.body.error.message).toMatch(/^from deve ser um instante ISO 8601/);
    expect((await merchant.client.get(`/statement?${query(start, end, { limit: '101' })}`)).body.error.param).toBe('/limit');

    // GET /v1/statement reads at most 31 days at a time; the admin route streams any window.
    const month = (days: number) => query(new Date(end.getTime() - days * 86_400_000), end);
    expect((await merchant.client.get(`/statement?${month(31)}`)).status).toBe(200);
    const tooLong = await merchant.client.get(`/statement?${month(31.001)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toEqual({
      code: 'invalid_request',
      message: 'O período de from a to deve ser de no máximo 31 dias',
      param: '/to',
    });
    expect((await adminStatement(live.stack, merchant.account.id, new Date(end.getTime() - 400 * 86_400_000), end)).status).toBe(200);

    const unknown = await adminStatement(live.stack, 'acc_000000000000000000000000', start, end);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, error: { code: 'not_found', message: 'Conta não encontrada' } });
    expect((await adminStatement(live.stack, 'acc_000000000000000000000000', start, end, 'text/csv')).status).toBe(404);
  });

  it('pixctl accounts statement prints the statement, or its CSV with --csv', async () => {
    const args = ['accounts', 'statement', merchant.account.id, '--from', start.toISOString(), '--to', end.toISOString()];
    const table = await runPixctl(live.stack, args);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^openingBalance\s+0$/m);
    expect(table.stdout).toMatch(/^closingBalance\s+62\.25$/m);
    expect(table.stdout).toMatch(new RegExp(`\\stransfer_fee\\s+${ids.sent}\\s+Tarifa da transferência Pix\\s+-0\\.75\\s+67\\.25$`, 'm'));

    const csv = await runPixctl(live.stack, [...args, '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const http = await adminStatement(live.stack, merchant.account.id, start, end, 'text/csv');
    expect(csv.stdout).toBe(http.text.replace(/\r\n$/, '\n'));

    const json = await runPixctl(live.stack, [...args, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(await statementOf(live.stack, merchant.account.id, start, end));
    expect((await runPixctl(live.stack, [...args, '--csv', '--json'])).code).toBe(2);
    const unknown = await runPixctl(live.stack, [
      'accounts',
      'statement',
      'acc_nope',
      '--from',
      start.toISOString(),
      '--to',
      end.toISOString(),
      '--csv',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Conta não encontrada \(not_found, HTTP 404\)/);
  });

  it('gives every account of the database a statement of all its history that ends at its balance', async () => {
    const accounts = await live.sql<{ id: string }[]>`select id from accounts`;
    const [ever, now] = [new Date('0001-01-01T00:00:00Z'), new Date((await dbNow(live.sql)).getTime() + 1)];
    for (const { id } of accounts) {
      const statement = await statementOf(live.stack, id, ever, now);
      expect(statement.openingBalance).toBe(0);
      expectChained(statement);
      const [balance] = await live.sql<
        { balance: bigint }[]
      >`select balance from ledger_balances where id = ${customerAccount(id, 'available')}`;
      expect(cents(statement.closingBalance), id).toBe(Number(balance?.balance ?? 0n));
    }
  });
});

describe('a statement longer than a batch', () => {
  // 1,200 MED retentions and releases of one account, all in one PostgreSQL transaction (one instant):
  // more entries than a batch of the ledger's reading, with the batches' boundary inside that instant.
  const MEDS = 1200;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let start: Date;
  let end: Date;

  beforeAll(async () => {
    merchant = await createMerchant(live.stack);
    start = await dbNow(live.sql);
    const charge = await createCharge(merchant.client, { amount: 10 });
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(merchant.client, charge.id, 'approved');
    const available = customerAccount(merchant.account.id, 'available');
    const retained = customerAccount(merchant.account.id, 'retained');
    await live.sql.begin(async (tx) => {
      for (let i = 0; i < MEDS; i += 1) {
        const amount = 1 + (i % 7);
        await post(tx, {
          key: `med:med_batch${i}:retain`,
          transactionId: charge.id,
          description: `retenção ${i}`,
          entries: [
            { account: available, amount: -amount },
            { account: retained, amount },
          ],
        });
        await post(tx, {
          key: `med:med_batch${i}:release`,
          transactionId: charge.id,
          description: `liberação ${i}`,
          entries: [
            { account: retained, amount: -amount },
            { account: available, amount },
          ],
        });
      }
    });
    end = new Date((await dbNow(live.sql)).getTime() + 1);
  }, 120_000);

  it('reads every entry once, in order, the same in JSON, CSV and pages', async () => {
    const statement = await statementOf(live.stack, merchant.account.id, start, end);
    expect(statement.entries).toHaveLength(1 + 2 * MEDS);
    expectChained(statement);
    expect(statement.entries.slice(1).map((e) => e.description)).toEqual(
      Array.from({ length: 2 * MEDS }, (_, n) => `${n % 2 ? 'liberação' : 'retenção'} ${Math.floor(n / 2)}`),
    );
    expect(statement.closingBalance).toBe(10);

    const csv = await adminStatement(live.stack, merchant.account.id, start, end, 'text/csv');
    expect(csv.text.split('\r\n')).toHaveLength(1 + statement.entries.length + 1);

    // Pages around the batch boundary (entry 1000).
    for (const page of [10, 11]) {
      const res = await merchant.client.get(`/statement?${query(start, end, { page: String(page), limit: '100' })}`);
      expect(res.body.pagination).toEqual({ page, limit: 100, total: 2401, pages: 25 });
      expect(res.body.data.entries).toEqual(statement.entries.slice((page - 1) * 100, page * 100));
    }
  });
});

describe('a MED devolução the PSP made', () => {
  let psp: FakePsp;
  let stack: Stack;
  let sql: Sql;
  let listenerUrl: string;

  beforeAll(async () => {
    psp = await startFakePsp();
    const onPsp = await engineOnFakePsp(psp);
    listenerUrl = onPsp.listenerUrl;
    stack = await startStack({ env: onPsp.env });
    sql = connect(stack.databaseUrl, { max: 2 });
  }, 120_000);

  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
    await psp?.close();
  });

  it('is a med_returned entry: the account pays it back from its available balance', async () => {
    const merchant = await createMerchant(stack, { route: 'psp' });
    const start = await dbNow(sql);
    const charge = await createCharge(merchant.client, { amount: 30 });
    const { endToEndId } = psp.pay(txidOf(charge.id));
    expect(await psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds: [endToEndId] })).toBe(200);
    await waitForStatus(merchant.client, charge.id, 'approved');
    psp.addDevolucao(endToEndId, { id: 'D1statement', amountCents: 1200, natureza: 'MED_OPERACIONAL' });
    expect(await psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds: [endToEndId] })).toBe(200);
    await eventually(async () => (await balanceOf(merchant.client)).available === 18, 20_000, 100);
    const end = new Date((await dbNow(sql)).getTime() + 1);

    const statement = await statementOf(stack, merchant.account.id, start, end);
    expect(shape(statement.entries)).toEqual([
      ['charge', charge.id, 30, 30],
      ['med_returned', charge.id, -12, 18],
    ]);
    expect(statement.entries[1]!.description).toContain('D1statement');
    expectChained(statement);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
