// GET /v1/transactions, GET /v1/transactions/{id} and GET /v1/balance over HTTP against the real
// stack, over real charges and transfers. The balance test writes its ledger postings straight into
// the stack's database, to show reserved and retained amounts together without a MED or transfer flow.
import { beforeAll, describe, expect, it } from 'vitest';
import { customerAccount, platformAccount } from '../../src/ledger/accounts.js';
import { post } from '../../src/ledger/post.js';
import { payCharge as payAtNetwork } from '../../src/pix-routes/simulator.js';
import { createCharge, payCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createKey, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { cpfKeyBody, postTransfer } from '../helpers/transfers.js';

// Transfers stay pending until the admin completes them, so the listing's states hold still.
const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

const ids = (res: { body: any }) => res.body.data.map((t: { id: string }) => t.id);

describe('GET /v1/transactions', () => {
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let newestFirst: string[];

  /** A real charge paid at the simulator, once the engine has approved it. */
  async function paidCharge(amount: number): Promise<string> {
    const charge = await createCharge(merchant.client, { amount });
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await eventually(
      async () => (await live.sql`select status from transactions where id = ${charge.id}`)[0]?.status === 'approved',
      20_000,
    );
    return charge.id;
  }

  beforeAll(async () => {
    merchant = await createMerchant(live.stack, { fees: { charge: { fixed: 1.99, percent: 0 } } });
    const first = await paidCharge(50);
    const second = await paidCharge(30);
    const transfer = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }));
    expect(transfer.status, transfer.text).toBe(201);
    const third = (await createCharge(merchant.client, { amount: 20 })).id;
    const fourth = (await createCharge(merchant.client, { amount: 100 })).id;
    newestFirst = [fourth, third, transfer.body.data.id, second, first];
  });

  it('lists newest first with pagination beside data', async () => {
    const res = await merchant.client.get('/transactions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: expect.any(Array),
      pagination: { page: 1, limit: 20, total: 5, pages: 1 },
      requestId: expect.any(String),
    });
    expect(ids(res)).toEqual(newestFirst);
    expect(res.body.data[0]).toMatchObject({ id: newestFirst[0], status: 'pending', amount: 100, fee: 1.99, netAmount: 98.01 });
  });

  it('pages with page and limit', async () => {
    const second = await merchant.client.get('/transactions?page=2&limit=2');
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3 });
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    const beyond = await merchant.client.get('/transactions?page=9&limit=2');
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ page: 9, limit: 2, total: 5, pages: 3 });
  });

  it('filters by status and type', async () => {
    const approved = await merchant.client.get('/transactions?status=approved');
    expect(ids(approved)).toEqual(newestFirst.slice(3));
    expect(approved.body.pagination.total).toBe(2);
    const withdrawals = await merchant.client.get('/transactions?type=withdrawal');
    expect(ids(withdrawals)).toEqual([newestFirst[2]]);
    expect(withdrawals.body.data[0]).toMatchObject({ direction: 'out', type: 'withdrawal' });
    const pendingPayments = await merchant.client.get('/transactions?type=payment&status=pending');
    expect(ids(pendingPayments)).toEqual([newestFirst[0], newestFirst[1]]);
  });

  it('refuses a status or type outside the lists with their own codes', async () => {
    for (const [query, code] of [
      ['status=paid', 'invalid_status'],
      ['status=', 'invalid_status'],
      ['type=deposit', 'invalid_type'],
      ['type=PAYMENT', 'invalid_type'],
    ] as const) {
      const res = await merchant.client.get(`/transactions?${query}`);
      expect(res.status, query).toBe(400);
      const param = `/${query.split('=')[0]}`;
      expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String), param }, requestId: expect.any(String) });
    }
  });

  it('refuses page and limit outside their ranges with 400 invalid_request', async () => {
    for (const query of ['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=101', 'limit=1.5', 'limit=20&limit=30']) {
      const res = await merchant.client.get(`/transactions?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('invalid_request');
    }
    const edges = await merchant.client.get('/transactions?limit=100&page=1');
    expect(edges.status).toBe(200);
    expect(edges.body.pagination).toMatchObject({ limit: 100, pages: 1 });
  });

  it('answers an empty page for any integer page up to 2^53−1, and 400 beyond', async () => {
    for (const page of ['1000000000', String(Number.MAX_SAFE_INTEGER)]) {
      const res = await merchant.client.get(`/transactions?page=${page}&limit=100`);
      expect(res.status, page).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toEqual({ page: Number(page), limit: 100, total: 5, pages: 1 });
    }
    for (const page of [String(Number.MAX_SAFE_INTEGER + 1), '99999999999999999999', '1e3']) {
      const res = await merchant.client.get(`/transactions?page=${page}`);
      expect(res.status, page).toBe(400);
      expect(res.body.error.code, page).toBe('invalid_request');
    }
  });

  it('filters by creation instant: createdFrom included, createdTo excluded, counted exactly', async () => {
    const createdAt = new Map<string, string>((await merchant.client.get('/transactions')).body.data.map((t: any) => [t.id, t.createdAt]));
    const window = new URLSearchParams({ createdFrom: createdAt.get(newestFirst[3]!)!, createdTo: createdAt.get(newestFirst[1]!)! });
    const res = await merchant.client.get(`/transactions?${window}`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual(newestFirst.slice(2, 4));
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2, pages: 1 });
    const since = await merchant.client.get(
      `/transactions?type=payment&createdFrom=${encodeURIComponent(createdAt.get(newestFirst[3]!)!)}`,
    );
    expect(ids(since)).toEqual([newestFirst[0], newestFirst[1], newestFirst[3]]);
    for (const query of ['createdFrom=2026-11-25', 'createdTo=ontem']) {
      const bad = await merchant.client.get(`/transactions?${query}`);
      expect([bad.status, bad.body.error?.code, bad.body.error?.param], query).toEqual([400, 'invalid_request', `/${query.split('=')[0]}`]);
    }
  });

  it('refuses a parameter it does not know, naming it, instead of listing everything', async () => {
    for (const query of ['from=2026-11-25', 'direction=in', 'externalId=abc']) {
      const res = await merchant.client.get(`/transactions?${query}`);
      const name = query.split('=')[0]!;
      expect([res.status, res.body.error?.code, res.body.error?.param], query).toEqual([400, 'invalid_request', `/${name}`]);
      expect(res.body.error.message).toContain(`Parâmetro desconhecido: ${name}`);
    }
  });

  it('shows an account none of the others', async () => {
    const other = await createMerchant(live.stack);
    const res = await other.client.get('/transactions');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 0, pages: 0 });
  });
});

describe('GET /v1/transactions/{id}', () => {
  it('fetches by id and by externalId, never another account’s', async () => {
    const merchant = await createMerchant(live.stack);
    const stranger = await createMerchant(live.stack);
    const { id } = await createCharge(merchant.client, {}, 'pedido:2025/001');

    const byId = await merchant.client.get(`/transactions/${id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      success: true,
      data: expect.objectContaining({ id, externalId: 'pedido:2025/001' }),
      requestId: expect.any(String),
    });
    const byExternalId = await merchant.client.get(`/transactions/${encodeURIComponent('pedido:2025/001')}`);
    expect(byExternalId.status).toBe(200);
    expect(byExternalId.body.data).toEqual(byId.body.data);

    for (const path of [
      `/transactions/${id}`,
      `/transactions/${encodeURIComponent('pedido:2025/001')}`,
      '/transactions/txn_doesnotexist',
    ]) {
      const res = await stranger.client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('refuses a refresh value other than true or false', async () => {
    const merchant = await createMerchant(live.stack);
    const { id } = await createCharge(merchant.client);
    const res = await merchant.client.get(`/transactions/${id}?refresh=yes`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('with refresh=true asks the route, so a payment whose notification was lost is found', async () => {
    const merchant = await createMerchant(live.stack);
    const charge = await createCharge(merchant.client, { amount: 12.34 });
    // The payer pays on the network, but the notification to the engine never arrives.
    await payAtNetwork(live.sql, charge.id, {
      payer: { name: 'Maria da Silva', document: '52998224725', bankName: 'Banco Rede', state: 'MG' },
    });
    const stale = await merchant.client.get(`/transactions/${charge.id}`);
    expect(stale.body.data).toMatchObject({ status: 'pending', processingState: 'monitoring' });
    const refreshed = await merchant.client.get(`/transactions/${charge.id}?refresh=true`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toMatchObject({
      id: charge.id,
      status: 'approved',
      processingState: 'completed',
      payer: { bankName: 'Banco Rede', state: 'MG' },
    });
    expect(refreshed.body.data.approvedAt).not.toBeNull();
    // A final transaction is answered as it is.
    const again = await merchant.client.get(`/transactions/${charge.externalId}?refresh=true`);
    expect(again.body.data).toEqual(refreshed.body.data);
  });

  it('requires transactions:read', async () => {
    const merchant = await createMerchant(live.stack);
    const { id } = await createCharge(merchant.client);
    const balanceOnly = await createKey(live.stack, merchant.account.id, ['balance:read']);
    const res = await fetch(`${live.stack.baseUrl}/transactions/${id}`, { headers: { authorization: `Bearer ${balanceOnly.key}` } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('permission_denied');
  });
});

describe('GET /v1/balance', () => {
  it('shows available and, as reserved, the reserved plus retained balances in reais', async () => {
    const merchant = await createMerchant(live.stack);
    const acc = merchant.account.id;
    const empty = await merchant.client.get('/balance');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ success: true, data: { currency: 'BRL', available: 0, reserved: 0 }, requestId: expect.any(String) });

    await live.sql.begin(async (tx) => {
      await post(tx, {
        key: `test:balance:${acc}:in`,
        description: 'approved charge',
        entries: [
          { account: platformAccount('pix_clearing', acc), amount: -100_000 },
          { account: platformAccount('fee_revenue', acc), amount: 199 },
          { account: customerAccount(acc, 'available'), amount: 99_801 },
        ],
      });
      await post(tx, {
        key: `test:balance:${acc}:hold`,
        description: 'transfer reservation and MED retention',
        entries: [
          { account: customerAccount(acc, 'available'), amount: -30_010 },
          { account: customerAccount(acc, 'reserved'), amount: 20_000 },
          { account: customerAccount(acc, 'retained'), amount: 10_010 },
        ],
      });
    });
    const res = await merchant.client.get('/balance');
    expect(res.body.data).toEqual({ currency: 'BRL', available: 697.91, reserved: 300.1 });
  });
});
