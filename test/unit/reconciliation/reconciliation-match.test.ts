// The verdicts of reconciliation (src/reconciliation/match.ts): each PSP record against what the
// engine holds, one row of books.md's table at a time, and the disagreements the table leaves to an
// operator.
import { describe, expect, it } from 'vitest';
import type { RouteReceivedRecord, RouteRefundRecord, RouteSentRecord } from '../../../src/pix-routes/route-records.js';
import { judgeReceived, judgeRefund, judgeSent, type EngineCharge, type EngineRefund } from '../../../src/reconciliation/match.js';

const at = new Date('2026-11-26T15:00:00Z');
const pix = (fields: Partial<RouteReceivedRecord> = {}): RouteReceivedRecord => ({
  endToEndId: 'E0000000020261126150000000000001',
  txid: 'txid1',
  amountCents: 10_000,
  at,
  payer: { name: 'Maria', document: '52998224725' },
  refunds: [],
  ...fields,
});
const charge = (fields: Partial<EngineCharge> = {}): EngineCharge => ({
  id: 'txn_aaaaaaaaaaaaaaaaaaaaaaaa',
  status: 'pending',
  amountCents: 10_000,
  endToEndId: null,
  endedAt: null,
  ...fields,
});
const devolucao = (fields: Partial<RouteRefundRecord> = {}): RouteRefundRecord => ({
  id: 'rfdbbbbbbbbbbbbbbbbbbbbbbbb',
  rtrId: 'D1',
  amountCents: 2_000,
  nature: 'ORIGINAL',
  status: 'DEVOLVIDO',
  reason: null,
  requestedAt: at,
  settledAt: at,
  ...fields,
});
const refund = (fields: Partial<EngineRefund> = {}): EngineRefund => ({
  id: 'rfd_bbbbbbbbbbbbbbbbbbbbbbbb',
  status: 'pending',
  amountCents: 2_000,
  transactionId: 'txn_aaaaaaaaaaaaaaaaaaaaaaaa',
  ...fields,
});
const envio = (fields: Partial<RouteSentRecord> = {}): RouteSentRecord => ({
  idEnvio: 'outcccccccccccccccccccccccc',
  endToEndId: 'E1',
  amountCents: 5_000,
  status: 'REALIZADO',
  at,
  ...fields,
});
const transfer = { id: 'out_cccccccccccccccccccccccc', amountCents: 5_000 };

const kindAndAction = (verdict: ReturnType<typeof judgeReceived>) =>
  verdict.verdict === 'matched' ? 'matched' : `${verdict.kind}/${verdict.action.type}`;

describe('a received Pix', () => {
  it('agrees with the charge it approved (same Pix, same amount)', () => {
    const paid = charge({ status: 'approved', endToEndId: pix().endToEndId });
    expect(judgeReceived(pix(), paid)).toEqual({ verdict: 'matched', engineId: paid.id });
    expect(judgeReceived(pix(), charge({ status: 'refunded', endToEndId: pix().endToEndId })).verdict).toBe('matched');
  });

  it('agrees with a charge paid before the engine kept the Pix id, of the same amount', () => {
    expect(judgeReceived(pix(), charge({ status: 'approved' })).verdict).toBe('matched');
  });

  it('of the full amount of a pending charge: late_settlement, settled', () => {
    const verdict = judgeReceived(pix(), charge());
    expect(verdict).toMatchObject({ verdict: 'item', kind: 'late_settlement', action: { type: 'settle_charge' } });
    expect(verdict).toMatchObject({ transactionId: charge().id, engineAmountCents: 10_000 });
  });

  it('of another amount for a pending charge: amount_mismatch, held in suspense', () => {
    expect(kindAndAction(judgeReceived(pix({ amountCents: 9_999 }), charge()))).toBe('amount_mismatch/hold');
  });

  it('of any value for a pending due-date charge (the PSP computed what was due that day): late_settlement, settled', () => {
    expect(kindAndAction(judgeReceived(pix({ amountCents: 10_350 }), charge({ dueDate: true })))).toBe('late_settlement/settle_charge');
  });

  describe('for a charge cancelled (or failed) since, by the Pix’s own time', () => {
    const before = new Date(at.getTime() - 1);
    const after = new Date(at.getTime() + 1);

    it('arrived after the charge ended: paid_after_cancel, held in suspense, whatever its amount', () => {
      expect(kindAndAction(judgeReceived(pix(), charge({ status: 'cancelled', endedAt: before })))).toBe('paid_after_cancel/hold');
      expect(kindAndAction(judgeReceived(pix({ amountCents: 1 }), charge({ status: 'failed', endedAt: before })))).toBe(
        'paid_after_cancel/hold',
      );
      expect(kindAndAction(judgeReceived(pix({ amountCents: 1 }), charge({ status: 'cancelled', endedAt: at })))).toBe(
        'paid_after_cancel/hold',
      );
    });

    it('of another value, arrived while the charge was pending: amount_mismatch, held in suspense', () => {
      const verdict = judgeReceived(pix({ amountCents: 9_999 }), charge({ status: 'cancelled', endedAt: after }));
      expect(kindAndAction(verdict)).toBe('amount_mismatch/hold');
      expect(verdict).toMatchObject({ transactionId: charge().id, engineAmountCents: 10_000, detail: expect.stringMatching(/pendente/) });
      expect(kindAndAction(judgeReceived(pix({ amountCents: 1 }), charge({ status: 'failed', endedAt: after })))).toBe(
        'amount_mismatch/hold',
      );
    });

    it('of the full amount (or any value of a due-date charge), arrived while pending: paid_after_cancel, said so', () => {
      const verdict = judgeReceived(pix(), charge({ status: 'cancelled', endedAt: after }));
      expect(kindAndAction(verdict)).toBe('paid_after_cancel/hold');
      expect(verdict).toMatchObject({ detail: expect.stringMatching(/ainda estava pendente/) });
      const dueDate = charge({ status: 'cancelled', endedAt: after, dueDate: true });
      expect(kindAndAction(judgeReceived(pix({ amountCents: 10_350 }), dueDate))).toBe('paid_after_cancel/hold');
    });
  });

  it('with no txid or a txid the engine never issued: unmatched_received, held in suspense', () => {
    const none = judgeReceived(pix({ txid: null }), null);
    expect(kindAndAction(none)).toBe('unmatched_received/hold');
    expect(none).toMatchObject({ transactionId: null, engineAmountCents: null, detail: expect.stringMatching(/sem txid/) });
    expect(judgeReceived(pix({ txid: 'never' }), null)).toMatchObject({
      kind: 'unmatched_received',
      detail: expect.stringMatching(/never/),
    });
  });

  it('a second Pix for a charge another Pix paid: unmatched_received, held (the money is nobody’s)', () => {
    const paid = charge({ status: 'approved', endToEndId: 'E-other' });
    expect(kindAndAction(judgeReceived(pix(), paid))).toBe('unmatched_received/hold');
  });

  it('the Pix that approved a charge, of another value: amount_mismatch, nothing moved', () => {
    const paid = charge({ status: 'approved', endToEndId: pix().endToEndId });
    expect(kindAndAction(judgeReceived(pix({ amountCents: 10_001 }), paid))).toBe('amount_mismatch/none');
  });
});

describe('a devolução of a received Pix', () => {
  const paid = charge({ status: 'approved' });
  const context = (fields: Partial<Parameters<typeof judgeRefund>[1]> = {}) => ({
    charge: paid,
    refund: refund(),
    medRecorded: false,
    ...fields,
  });

  it('agrees with the refund in the same state, or one the PSP still processes', () => {
    expect(judgeRefund(devolucao(), context({ refund: refund({ status: 'approved' }) }))).toEqual({
      verdict: 'matched',
      engineId: refund().id,
    });
    expect(judgeRefund(devolucao({ status: 'NAO_REALIZADO' }), context({ refund: refund({ status: 'failed' }) })).verdict).toBe('matched');
    expect(judgeRefund(devolucao({ status: 'EM_PROCESSAMENTO' }), context()).verdict).toBe('matched');
    expect(judgeRefund(devolucao({ status: 'EM_PROCESSAMENTO' }), context({ refund: refund({ status: 'approved' }) })).verdict).toBe(
      'matched',
    );
  });

  it('settled at the PSP, pending in the engine: refund_unsettled, settled or released as the PSP says', () => {
    expect(judgeRefund(devolucao(), context())).toMatchObject({
      kind: 'refund_unsettled',
      action: { type: 'settle_refund', outcome: 'approved', reason: null },
      transactionId: paid.id,
    });
    expect(judgeRefund(devolucao({ status: 'NAO_REALIZADO', reason: 'Conta encerrada' }), context())).toMatchObject({
      action: { type: 'settle_refund', outcome: 'failed', reason: 'Conta encerrada' },
    });
  });

  it('a devolução from suspense still pending: settled through suspense', () => {
    const fromSuspense = refund({ id: 'rci_dddddddddddddddddddddddd', transactionId: null });
    expect(judgeRefund(devolucao({ id: 'rcidddddddddddddddddddddddd' }), context({ refund: fromSuspense }))).toMatchObject({
      kind: 'refund_unsettled',
      action: { type: 'settle_suspense_refund', outcome: 'approved' },
    });
  });

  it('final both sides but different, or one the engine never asked for: refund_unsettled, open, nothing moved', () => {
    expect(kindAndAction(judgeRefund(devolucao(), context({ refund: refund({ status: 'failed' }) })))).toBe('refund_unsettled/none');
    expect(kindAndAction(judgeRefund(devolucao({ id: 'D-foreign' }), context({ refund: null })))).toBe('refund_unsettled/none');
  });

  it('of nature MED returned and not recorded: med_unrecorded, recorded; recorded or not returned yet: matched', () => {
    const med = devolucao({ id: 'MED1', nature: 'MED_FRAUDE' });
    expect(kindAndAction(judgeRefund(med, context({ refund: null })))).toBe('med_unrecorded/record_med');
    expect(kindAndAction(judgeRefund({ ...med, nature: 'MED_OPERACIONAL' }, context({ refund: null })))).toBe('med_unrecorded/record_med');
    expect(kindAndAction(judgeRefund({ ...med, nature: 'MED_PIX_AUTOMATICO' }, context({ refund: null })))).toBe(
      'med_unrecorded/record_med',
    );
    expect(judgeRefund(med, context({ refund: null, medRecorded: true })).verdict).toBe('matched');
    expect(judgeRefund({ ...med, status: 'EM_PROCESSAMENTO' }, context({ refund: null })).verdict).toBe('matched');
  });

  it('a MED devolução of a Pix with no approved charge cannot be recorded: med_unrecorded, open', () => {
    const med = devolucao({ id: 'MED1', nature: 'MED_FRAUDE' });
    expect(kindAndAction(judgeRefund(med, context({ charge: null, refund: null })))).toBe('med_unrecorded/none');
    expect(kindAndAction(judgeRefund(med, context({ charge: charge({ status: 'cancelled' }), refund: null })))).toBe('med_unrecorded/none');
  });
});

describe('an envio', () => {
  it('agrees with the transfer in the same state, or one the PSP still processes', () => {
    expect(judgeSent(envio(), { ...transfer, status: 'approved' })).toEqual({ verdict: 'matched', engineId: transfer.id });
    expect(judgeSent(envio({ status: 'NAO_REALIZADO' }), { ...transfer, status: 'failed' }).verdict).toBe('matched');
    expect(judgeSent(envio({ status: 'EM_PROCESSAMENTO' }), { ...transfer, status: 'pending' }).verdict).toBe('matched');
  });

  it('final at the PSP, pending in the engine: transfer_unsettled, settled or released', () => {
    expect(judgeSent(envio(), { ...transfer, status: 'pending' })).toMatchObject({
      kind: 'transfer_unsettled',
      action: { type: 'settle_transfer', outcome: 'approved' },
      transactionId: transfer.id,
      engineAmountCents: 5_000,
    });
    expect(judgeSent(envio({ status: 'NAO_REALIZADO' }), { ...transfer, status: 'pending' })).toMatchObject({
      action: { type: 'settle_transfer', outcome: 'failed', reason: expect.any(String) },
    });
  });

  it('final both sides but different, or one the engine never made: transfer_unsettled, open, nothing moved', () => {
    expect(kindAndAction(judgeSent(envio(), { ...transfer, status: 'failed' }))).toBe('transfer_unsettled/none');
    expect(kindAndAction(judgeSent(envio(), null))).toBe('transfer_unsettled/none');
  });
});
