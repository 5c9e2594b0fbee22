// acceptTransferWith (src/transfers/activities.ts), the accept step of transfer-settles-in-accept, with fake
// steps: a final answer's route reference goes to the settlement, is written on its own when the
// settlement fails, and never reaches the step's answer (which the workflow's history records).
import { describe, expect, it } from 'vitest';
import { acceptTransferWith, type AcceptSteps } from '../../../src/transfers/activities.js';
import { DISPATCH_AT_ONCE, type Settled } from '../../../contracts/transaction.contract.js';
import type { TransferDraft } from '../../../src/transfers/contract.js';

const draft = { transactionId: 'out_1' } as TransferDraft;
const persisted = {
  outcome: 'persisted' as const,
  transaction: { id: 'out_1', status: 'pending' as const },
  fingerprint: 'f',
  created: true,
};
const settled: Settled = { transaction: { id: 'out_1', status: 'approved' }, eventIds: ['evt_out_1_approved'] };

function steps(settle: () => Promise<Settled>) {
  const calls: unknown[][] = [];
  const fake: AcceptSteps = {
    persistAndSendTransfer: async () => ({
      ...persisted,
      sent: { status: 'approved', settledAt: '2026-11-27T10:00:00.000Z' },
      routeRef: 'E123',
    }),
    settleTransferApproved: async (...args) => {
      calls.push(['settleTransferApproved', ...args]);
      return settle();
    },
    settleTransferFailed: async () => {
      throw new Error('not asked');
    },
    rememberRouteRef: async (...args) => void calls.push(['rememberRouteRef', ...args]),
  };
  return { fake, calls };
}

describe('the accept step that settles a final answer', () => {
  it('hands the route reference to the settlement and answers without it', async () => {
    const { fake, calls } = steps(async () => settled);
    const answer = await acceptTransferWith(fake)(draft);
    expect(calls).toEqual([['settleTransferApproved', 'out_1', '2026-11-27T10:00:00.000Z', DISPATCH_AT_ONCE, 'E123']]);
    expect(answer).toEqual({ ...persisted, sent: { status: 'approved', settledAt: '2026-11-27T10:00:00.000Z' }, settled });
  });

  it('writes the reference alone when the settlement fails, and leaves the settlement to the workflow', async () => {
    const { fake, calls } = steps(async () => {
      throw new Error('connection lost');
    });
    const answer = await acceptTransferWith(fake)(draft);
    expect(calls.map(([name]) => name)).toEqual(['settleTransferApproved', 'rememberRouteRef']);
    expect(calls[1]).toEqual(['rememberRouteRef', 'out_1', 'E123']);
    expect(answer).toEqual({ ...persisted, sent: { status: 'approved', settledAt: '2026-11-27T10:00:00.000Z' } });
  });
});
