// Reconciliation decides a Pix for a charge that is no longer pending by the Pix's own time (books.md):
// on the simulator route, a Pix of another value that arrived while its charge was still pending stays
// `amount_mismatch` though the charge expired before the run, and a Pix that arrived after the charge
// expired is `paid_after_cancel`, whatever its value. Charges expire after CHARGE_TTL_SECONDS.
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { createCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { admin } from '../../helpers/stack.js';

const live = liveStack({ env: { CHARGE_TTL_SECONDS: '3' } });
const PAYER = { name: 'Fulano de Tal', document: '529.982.247-25' };

const txidOf = (charge: any): string => {
  const code = parseBrCode(charge.pix.copyPaste);
  if (!code.ok || code.txid === null) throw new Error('charge without a txid in its BR Code');
  return code.txid;
};

async function receivePix(charge: any, amount: number): Promise<string> {
  const res = await admin(live.stack, 'POST', '/simulator/pix', { txid: txidOf(charge), amount, payer: PAYER });
  expect(res.status, res.text).toBe(201);
  return res.body.data.endToEndId;
}

async function reconcile(window: { from: string; to: string }): Promise<any> {
  const started = await admin(live.stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
  expect(started.status, started.text).toBe(202);
  return eventually(
    async () => {
      const res = await admin(live.stack, 'GET', `/reconciliations/${started.body.data.id}`);
      expect(res.body.data.status).not.toBe('failed');
      return res.body.data.status === 'completed' ? res.body.data : undefined;
    },
    60_000,
    200,
  );
}

describe('a Pix for a charge that expired, judged by when it arrived', () => {
  it('another value while pending: amount_mismatch; after expiry: paid_after_cancel; the same items on a second run', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const { client } = await createMerchant(live.stack);

    const short = await createCharge(client, { amount: 20 });
    const whilePending = await receivePix(short, 15);
    const late = await createCharge(client, { amount: 30 });
    expect(await waitForStatus(client, short.id, 'cancelled')).toMatchObject({ expired: true });
    expect(await waitForStatus(client, late.id, 'cancelled')).toMatchObject({ expired: true });
    const fullAfterExpiry = await receivePix(late, 30);
    const otherAfterExpiry = await receivePix(late, 29.99);

    const window = { from, to: new Date(Date.now() + 60_000).toISOString() };
    const run = await reconcile(window);
    const shape = (item: any) => ({ endToEndId: item.endToEndId, kind: item.kind, status: item.status, pspAmount: item.pspAmount });
    expect(run.items.map(shape).sort((a: any, b: any) => a.endToEndId.localeCompare(b.endToEndId))).toEqual(
      [
        { endToEndId: whilePending, kind: 'amount_mismatch', status: 'open', pspAmount: 15 },
        { endToEndId: fullAfterExpiry, kind: 'paid_after_cancel', status: 'open', pspAmount: 30 },
        { endToEndId: otherAfterExpiry, kind: 'paid_after_cancel', status: 'open', pspAmount: 29.99 },
      ].sort((a, b) => a.endToEndId.localeCompare(b.endToEndId)),
    );
    expect(run.items.find((item: any) => item.endToEndId === whilePending)).toMatchObject({ transactionId: short.id, engineAmount: 20 });

    const [suspense] = await live.sql<{ balance: bigint }[]>`select balance from ledger_balances where id = 'platform:suspense:simulator'`;
    expect(Number(suspense!.balance)).toBe(1500 + 3000 + 2999);
    await expectLedgerConsistent(live.stack.databaseUrl);

    const again = await reconcile(window);
    const stable = (r: any) => r.items.map((item: any) => [item.id, item.kind, item.runId, item.status]).sort();
    expect(stable(again)).toEqual(stable(run));
  });
});
