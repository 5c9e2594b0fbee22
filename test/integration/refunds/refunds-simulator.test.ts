// Refunds on the simulator route left to the network: a refund answered 201 is at the simulated
// network and settles approved by itself after SIMULATOR_TRANSFER_DELAY_MS; driven through pixctl.
import { describe, expect, it } from 'vitest';
import { createCharge, newKey, payCharge } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { runPixctl } from '../../helpers/pixctl-run.js';
import { admin } from '../../helpers/stack.js';

const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '300' } });

describe('refunds settled by the simulated network', () => {
  it('pixctl refunds create, then the devolução settles approved by itself; list and show answer it', async () => {
    const merchant = await createMerchant(live.stack);
    const charge = await createCharge(merchant.client, { amount: 40 });
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await eventually(
      async () => (await live.sql`select status from transactions where id = ${charge.id}`)[0]?.status === 'approved',
      20_000,
    );

    const missingKey = await runPixctl(live.stack, ['refunds', 'create', charge.id]);
    expect(missingKey.code).toBe(2);
    const created = await runPixctl(live.stack, [
      'refunds',
      'create',
      charge.id,
      '--amount',
      '15.5',
      '--reason',
      'Devolução parcial',
      '--idempotency-key',
      newKey('r'),
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const refund = JSON.parse(created.stdout);
    expect(refund).toMatchObject({ id: expect.stringMatching(/^rfd_/), transactionId: charge.id, amount: 15.5, status: 'pending' });

    const approved = await eventually(async () => {
      const shown = await admin(live.stack, 'GET', `/refunds/${refund.id}`);
      return shown.body.data.status === 'approved' ? shown.body.data : undefined;
    }, 20_000);
    expect(approved.settledAt).not.toBeNull();
    const charged = await admin(live.stack, 'GET', `/transactions/${charge.id}/refunds`);
    expect(charged.body.data).toEqual([approved]);
    const [row] = await live.sql`select refunded_amount::int as refunded, status from transactions where id = ${charge.id}`;
    expect(row).toEqual({ refunded: 1550, status: 'approved' });

    const listed = await runPixctl(live.stack, ['refunds', 'list', charge.id, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([approved]);
    const shown = await runPixctl(live.stack, ['refunds', 'show', refund.id]);
    expect(shown.stdout).toMatch(/^status\s+approved$/m);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
