// The operators' ledger check: GET /admin/ledger/check and `pixctl ledger check`, on a ledger that real
// charges posted to, then on one broken by a row written straight into PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { runPixctl } from '../helpers/pixctl-run.js';
import { admin } from '../helpers/stack.js';

describe('ledger check', () => {
  const live = liveStack();

  it('answers ok with the posting count on a consistent ledger, and pixctl exits 0', async () => {
    const { client } = await createMerchant(live.stack);
    const charge = await createCharge(client);
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(client, charge.id, 'approved');

    const asked = Date.now();
    const res = await admin(live.stack, 'GET', '/ledger/check');
    const answered = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, requestId: expect.stringMatching(/^req_/) });
    expect(res.body.data).toEqual({ ok: true, checkedAt: expect.any(String), postings: expect.any(Number), violations: [] });
    expect(res.body.data.postings).toBeGreaterThanOrEqual(1);
    // Checked for this request: between asking and the answer.
    expect(Date.parse(res.body.data.checkedAt)).toBeGreaterThanOrEqual(asked);
    expect(Date.parse(res.body.data.checkedAt)).toBeLessThanOrEqual(answered);

    const run = await runPixctl(live.stack, ['ledger', 'check']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok\s+true$/m);
    expect(run.stdout).toMatch(/^violations\s+0$/m);
  });

  it('refuses a caller without the admin token', async () => {
    const res = await fetch(`${live.stack.adminUrl}/ledger/check`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'unauthorized' } });
  });

  it('reports a posting that does not sum to zero and a balance that is not its entries; pixctl exits 1', async () => {
    const [account] = await live.sql<{ id: string }[]>`select id from ledger_accounts where kind = 'available' limit 1`;
    const [posting] = await live.sql<{ id: bigint }[]>`
      insert into ledger_postings (posting_key, description) values ('test:broken', 'written by hand') returning id`;
    await live.sql`insert into ledger_entries (posting_id, ledger_account_id, amount) values (${String(posting!.id)}::bigint, ${account!.id}, 123)`;

    const res = await admin(live.stack, 'GET', '/ledger/check');
    expect(res.status).toBe(200);
    expect(res.body.data.ok).toBe(false);
    expect(res.body.data.violations).toEqual(
      expect.arrayContaining([
        { kind: 'unbalanced_posting', postingKey: 'test:broken', sumCents: 123 },
        { kind: 'balance_mismatch', account: account!.id, balanceCents: expect.any(Number), entriesCents: expect.any(Number) },
      ]),
    );

    const run = await runPixctl(live.stack, ['ledger', 'check']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^ok\s+false$/m);
    expect(run.stdout).toContain('test:broken');
    const json = await runPixctl(live.stack, ['ledger', 'check', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      violations: expect.arrayContaining([expect.objectContaining({ postingKey: 'test:broken' })]),
    });
  });
});
