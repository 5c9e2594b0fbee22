// GET /v1/transparency against the real stack: the figures of the stack's own fresh database, created
// here through the admin and public APIs; one computation per burst; no key quota; and the 503 when
// the database refuses connections, validated against the served OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDICATORS_TTL_MS } from '../../src/api/routes/transparency.js';
import { connect } from '../../src/db/database.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { ADMIN_DATABASE_URL } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { createAccount, createMerchant } from '../helpers/fixtures.js';
import { loadContract } from '../helpers/openapi-contract.js';
import { http, startStack, type Stack } from '../helpers/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.stop();
});

const indicators = () => http('GET', `${stack.baseUrl}/transparency`);
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /v1/transparency', () => {
  it('starts from an empty platform, without authentication', async () => {
    const res = await indicators();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { transacoesConcluidas: 0, contasCriadas: 0, volumeMovimentado: 0, moeda: 'BRL', atualizadoEm: expect.stringMatching(ISO_MS) },
      requestId: expect.any(String),
    });
  });

  it('counts the accounts created and the approved transactions with their volume in reais', async () => {
    const startedAt = Date.now();
    const first = await createMerchant(stack);
    const second = await createMerchant(stack);
    await createAccount(stack, { kycStatus: 'pending' });
    const paid = [
      await createCharge(first.client, { amount: 100 }),
      await createCharge(first.client, { amount: 49.9 }),
      await createCharge(second.client, { amount: 10.55 }),
    ];
    await createCharge(second.client, { amount: 7 }); // stays pending: not counted
    for (const charge of paid) expect((await payCharge(stack, charge.id)).status).toBe(200);
    await waitForStatus(first.client, paid[0]!.id, 'approved');
    await waitForStatus(first.client, paid[1]!.id, 'approved');
    await waitForStatus(second.client, paid[2]!.id, 'approved');

    // The figures are kept for up to 5 seconds: wait for a fresh computation.
    const res = await eventually(
      async () => {
        const answer = await indicators();
        return answer.body.data.transacoesConcluidas === 3 ? answer : undefined;
      },
      15_000,
      250,
    );
    const answered = Date.now();
    expect(res.body.data).toEqual({
      transacoesConcluidas: 3,
      contasCriadas: 3,
      volumeMovimentado: 160.45,
      moeda: 'BRL',
      atualizadoEm: expect.stringMatching(ISO_MS),
    });
    // Computed during this test, after its payments, not a figure from before them.
    expect(Date.parse(res.body.data.atualizadoEm)).toBeGreaterThanOrEqual(startedAt);
    expect(Date.parse(res.body.data.atualizadoEm)).toBeLessThanOrEqual(answered);
  });

  it('serves a burst of calls from one computation, even when the burst finds the figures expired', async () => {
    const last = await indicators();
    const age = Date.now() - Date.parse(last.body.data.atualizadoEm);
    await new Promise((r) => setTimeout(r, Math.max(0, INDICATORS_TTL_MS - age) + 200));
    const burst = await Promise.all(Array.from({ length: 25 }, () => indicators()));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    const computedAt = new Set(burst.map((r) => r.body.data.atualizadoEm));
    expect(computedAt.size).toBe(1);
    expect([...computedAt][0]).not.toBe(last.body.data.atualizadoEm);
  });

  it("never consumes a key's quota, even when the key is sent", async () => {
    const merchant = await createMerchant(stack);
    const before = await merchant.client.get('/balance');
    expect(before.headers.get('ratelimit-remaining')).toBe('99');
    for (let i = 0; i < 30; i += 1) {
      const res = await http('GET', `${stack.baseUrl}/transparency`, { token: merchant.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    const after = await merchant.client.get('/balance');
    expect(after.headers.get('ratelimit-remaining')).toBe('98');
  });

  it('answers 503 in the error envelope while the database refuses connections, then recovers', async () => {
    const contract = await loadContract(stack);
    const operation = contract.operations.find((op) => op.operationId === 'getTransparency')!;
    const name = decodeURIComponent(new URL(stack.databaseUrl).pathname.slice(1));
    const admin = connect(ADMIN_DATABASE_URL, { max: 1 });
    try {
      await admin.unsafe(`alter database "${name}" allow_connections false`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
      // Once the cached figures expire, the next computation fails.
      const res = await eventually(
        async () => {
          const answer = await indicators();
          return answer.status === 503 ? answer : undefined;
        },
        15_000,
        250,
      );
      expect(res.body).toEqual({
        success: false,
        error: { code: 'internal_error', message: expect.any(String) },
        requestId: expect.any(String),
      });
      expect(res.text).not.toMatch(/postgres|database|allow_connections|at .*\.ts/i);
      expect(contract.problems(operation, res)).toEqual([]);
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`);
      await admin.end({ timeout: 5 });
    }
    const recovered = await eventually(async () => ((await indicators()).status === 200 ? true : undefined), 15_000, 250);
    expect(recovered).toBe(true);
  });
});
