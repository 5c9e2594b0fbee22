// GET /v1/transparency against the real stack: a fresh platform's zeros, then what accounts and approved
// transactions created here through the admin and public APIs add to the figures; one computation for
// calls that come together; no key quota; and the 503 when the database refuses connections, validated
// against the served OpenAPI document. Each test stands alone: the empty platform has a stack of its own,
// and the others count from the figures they find.
import { describe, expect, it } from 'vitest';
import { currentIndicators } from '../../src/api/routes/transparency.js';
import { connect } from '../../src/db/database.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { ADMIN_DATABASE_URL } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { createAccount, createMerchant } from '../helpers/fixtures.js';
import { liveStack, type LiveStack } from '../helpers/live-stack.js';
import { loadContract } from '../helpers/openapi-contract.js';
import { http } from '../helpers/stack.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const indicatorsOf = (live: LiveStack) => () => http('GET', `${live.stack.baseUrl}/transparency`);

/** The figures computed now from the stack's database, through a connection of their own (so no cached ones). */
async function freshIndicators(live: LiveStack) {
  const sql = connect(live.stack.databaseUrl, { max: 1 });
  try {
    return await currentIndicators(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

const cents = (reais: number) => Math.round(reais * 100);

describe('GET /v1/transparency on a fresh platform', () => {
  const live = liveStack();
  const indicators = indicatorsOf(live);

  it('starts from an empty platform, without authentication', async () => {
    const res = await indicators();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { transacoesConcluidas: 0, contasCriadas: 0, volumeMovimentado: 0, moeda: 'BRL', atualizadoEm: expect.stringMatching(ISO_MS) },
      requestId: expect.any(String),
    });
  });
});

describe('GET /v1/transparency', () => {
  const live = liveStack();
  const indicators = indicatorsOf(live);

  it('counts the accounts created and the approved transactions with their volume in reais', async () => {
    const before = await freshIndicators(live);
    const first = await createMerchant(live.stack);
    const second = await createMerchant(live.stack);
    await createAccount(live.stack, { kycStatus: 'pending' });
    const paid = [
      await createCharge(first.client, { amount: 100 }),
      await createCharge(first.client, { amount: 49.9 }),
      await createCharge(second.client, { amount: 10.55 }),
    ];
    await createCharge(second.client, { amount: 7 }); // stays pending: not counted
    for (const charge of paid) expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(first.client, paid[0]!.id, 'approved');
    await waitForStatus(first.client, paid[1]!.id, 'approved');
    await waitForStatus(second.client, paid[2]!.id, 'approved');

    // The figures are kept for a few seconds: wait for a computation made after these payments.
    const res = await eventually(
      async () => {
        const answer = await indicators();
        return answer.body.data.transacoesConcluidas === before.transacoesConcluidas + 3 ? answer : undefined;
      },
      15_000,
      250,
    );
    expect(res.body.data).toEqual({
      transacoesConcluidas: before.transacoesConcluidas + 3,
      contasCriadas: before.contasCriadas + 3,
      volumeMovimentado: expect.any(Number),
      moeda: 'BRL',
      atualizadoEm: expect.stringMatching(ISO_MS),
    });
    expect(cents(res.body.data.volumeMovimentado)).toBe(cents(before.volumeMovimentado) + 160_45);
  });

  it('computes the figures once for calls that come together, and answers the calls after them from that computation', async () => {
    const sql = connect(live.stack.databaseUrl, { max: 2 });
    let queries = 0;
    const counted = new Proxy(sql, {
      apply: (target, self, args) => {
        queries += 1;
        return Reflect.apply(target, self, args);
      },
    });
    try {
      const together = await Promise.all(Array.from({ length: 25 }, () => currentIndicators(counted)));
      expect(queries).toBe(1);
      expect(new Set(together).size).toBe(1);
      expect(together[0]).toMatchObject({ moeda: 'BRL', atualizadoEm: expect.stringMatching(ISO_MS) });
      const after = await currentIndicators(counted);
      expect(after).toBe(together[0]);
      expect(queries).toBe(1);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("never consumes a key's quota, even when the key is sent", async () => {
    const merchant = await createMerchant(live.stack);
    const before = await merchant.client.get('/balance');
    expect(before.headers.get('ratelimit-remaining')).toBe('99');
    for (let i = 0; i < 30; i += 1) {
      const res = await http('GET', `${live.stack.baseUrl}/transparency`, { token: merchant.key });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBeNull();
    }
    const after = await merchant.client.get('/balance');
    expect(after.headers.get('ratelimit-remaining')).toBe('98');
  });

  it('answers 503 in the error envelope while the database refuses connections, then recovers', async () => {
    const contract = await loadContract(live.stack);
    const operation = contract.operations.find((op) => op.operationId === 'getTransparency')!;
    const name = decodeURIComponent(new URL(live.stack.databaseUrl).pathname.slice(1));
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
