// What one PSP record says against what the engine holds about it (books.md, "Reconciliation against
// the PSP"): it agrees (matched), or it is the subject of an item of one kind, with what the run does
// about it. Pure: the run looks the engine up a page at a time and applies the verdicts.
import { MED_REFUND_NATURES, type RouteReceivedRecord, type RouteRefundRecord, type RouteSentRecord } from '../pix-routes/route-records.js';

export const ITEM_KINDS = [
  'late_settlement',
  'paid_after_cancel',
  'amount_mismatch',
  'unmatched_received',
  'transfer_unsettled',
  'refund_unsettled',
  'med_unrecorded',
  'missing_at_psp',
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

export type Outcome = 'approved' | 'failed';

/** What the run does about an item: a correction (the item is then `corrected`), money held in suspense, or nothing (`open`). */
export type Action =
  | { type: 'settle_charge' }
  | { type: 'hold' }
  | { type: 'settle_transfer'; outcome: Outcome; reason: string | null }
  | { type: 'settle_refund'; outcome: Outcome; reason: string | null }
  | { type: 'settle_suspense_refund'; outcome: Outcome; reason: string | null }
  | { type: 'record_med' }
  | { type: 'none' };

export interface ItemVerdict {
  verdict: 'item';
  kind: ItemKind;
  action: Action;
  /** The engine operation the record is about (txn_, out_, rfd_ or rci_), when there is one. */
  engineId: string | null;
  /** The charge or transfer the item concerns. */
  transactionId: string | null;
  engineAmountCents: number | null;
  detail: string;
}

/** `engineId`: the engine operation the record agrees with (null: a MED devolução not returned yet, nothing to compare). */
export type Verdict = { verdict: 'matched'; engineId: string | null } | ItemVerdict;

type EngineStatus = 'pending' | 'approved' | 'failed' | 'cancelled' | 'refunded';

/** A charge the engine issued on the route. */
export interface EngineCharge {
  id: string;
  status: EngineStatus;
  /** What was paid once approved; before, what was asked (a due-date charge's amount before its rules). */
  amountCents: number;
  /** A due-date charge: its PSP computes the value due on the day it is paid, so any value settles it. */
  dueDate?: boolean;
  /** The Pix that paid it, when the engine knows it. */
  endToEndId: string | null;
  /** A charge cancelled or failed: when it stopped being payable (its expiry, or an earlier cancellation or failure); null otherwise. */
  endedAt: Date | null;
}

export interface EngineTransfer {
  id: string;
  status: EngineStatus;
  /** What reaches the recipient (the envio's value). */
  amountCents: number;
}

/** A refund of the engine (rfd_), or the devolução from suspense of an item resolved `refund` (rci_). */
export interface EngineRefund {
  id: string;
  status: 'pending' | 'approved' | 'failed';
  amountCents: number;
  /** The charge it returns, or null for a devolução from suspense. */
  transactionId: string | null;
}

const reais = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;

const item = (kind: ItemKind, action: Action, fields: Omit<ItemVerdict, 'verdict' | 'kind' | 'action'>): ItemVerdict => ({
  verdict: 'item',
  kind,
  action,
  ...fields,
});

/** A received Pix against the charge it pays: by its end-to-end id, else by its txid (null: none on this route). */
export function judgeReceived(pix: RouteReceivedRecord, charge: EngineCharge | null): Verdict {
  const hold: Action = { type: 'hold' };
  if (!charge) {
    const detail = pix.txid === null ? 'Pix recebido sem txid' : `Pix recebido com o txid ${pix.txid}, que o motor não emitiu`;
    return item('unmatched_received', hold, { engineId: null, transactionId: null, engineAmountCents: null, detail });
  }
  const about = { engineId: charge.id, transactionId: charge.id, engineAmountCents: charge.amountCents };
  const sameAmount = pix.amountCents === charge.amountCents;
  // Built only for an item: a day's run judges a million Pix that agree.
  const values = () => `o PSP recebeu ${reais(pix.amountCents)}, a cobrança é de ${reais(charge.amountCents)}`;
  if (charge.endToEndId === pix.endToEndId) {
    if (sameAmount) return { verdict: 'matched', engineId: charge.id };
    return item('amount_mismatch', { type: 'none' }, { ...about, detail: `A cobrança foi aprovada por este Pix, mas ${values()}` });
  }
  switch (charge.status) {
    case 'pending':
      return sameAmount || charge.dueDate
        ? item('late_settlement', { type: 'settle_charge' }, { ...about, detail: 'Pix do valor integral de uma cobrança ainda pendente' })
        : item('amount_mismatch', hold, { ...about, detail: `Pix de outro valor para uma cobrança não paga: ${values()}` });
    case 'cancelled':
    case 'failed': {
      // The Pix's own time decides (books.md): another value paid while the charge was still pending is
      // amount_mismatch though the charge ended since; a due-date charge's PSP computes the value due,
      // so no value is another. Any other Pix is paid_after_cancel, the full amount in time included:
      // an ended charge is never settled.
      const ended = charge.status === 'cancelled' ? 'cancelada' : 'que falhou';
      const inTime = charge.endedAt !== null && pix.at < charge.endedAt;
      if (inTime && !sameAmount && !charge.dueDate) {
        return item('amount_mismatch', hold, {
          ...about,
          detail: `Pix de outro valor recebido quando a cobrança ainda estava pendente, hoje ${ended}: ${values()}`,
        });
      }
      const when = inTime ? ', recebido quando ela ainda estava pendente' : '';
      return item('paid_after_cancel', hold, { ...about, detail: `Pix para uma cobrança ${ended} (${reais(pix.amountCents)})${when}` });
    }
    default:
      // Paid before the engine kept the Pix's id: this is that Pix.
      if (charge.endToEndId === null && sameAmount) return { verdict: 'matched', engineId: charge.id };
      return item('unmatched_received', hold, {
        ...about,
        detail: `Segundo Pix para uma cobrança já paga por ${charge.endToEndId ?? 'outro Pix'} (${reais(pix.amountCents)})`,
      });
  }
}

const REFUND_STATUS = { EM_PROCESSAMENTO: 'pending', DEVOLVIDO: 'approved', NAO_REALIZADO: 'failed' } as const;
const ENVIO_STATUS = { EM_PROCESSAMENTO: 'pending', REALIZADO: 'approved', NAO_REALIZADO: 'failed' } as const;

/** What the engine knows about one devolução: its refund (or devolução from suspense), and for a MED, whether it is recorded. */
export interface RefundContext {
  /** The received Pix's charge, when it pays one. */
  charge: EngineCharge | null;
  refund: EngineRefund | null;
  medRecorded: boolean;
}

/** A devolução of a received Pix against the engine's refund, or, for a MED, the MED the engine recorded. */
export function judgeRefund(devolucao: RouteRefundRecord, context: RefundContext): Verdict {
  const { charge, refund } = context;
  if (MED_REFUND_NATURES.includes(devolucao.nature)) return judgeMedReturn(devolucao, context);
  if (!refund) {
    return item(
      'refund_unsettled',
      { type: 'none' },
      {
        engineId: null,
        transactionId: charge?.id ?? null,
        engineAmountCents: null,
        detail: `Devolução ${devolucao.id} (${REFUND_STATUS[devolucao.status]}) que o motor não pediu`,
      },
    );
  }
  const about = { engineId: refund.id, transactionId: refund.transactionId, engineAmountCents: refund.amountCents };
  const atPsp = REFUND_STATUS[devolucao.status];
  // The PSP's list may lag behind the answer the engine settled on.
  if (atPsp === refund.status || atPsp === 'pending') return { verdict: 'matched', engineId: refund.id };
  const reason = atPsp === 'failed' ? (devolucao.reason ?? 'Devolução não realizada pelo PSP') : null;
  if (refund.status === 'pending') {
    const type = refund.transactionId === null ? 'settle_suspense_refund' : 'settle_refund';
    return item(
      'refund_unsettled',
      { type, outcome: atPsp, reason },
      {
        ...about,
        detail: `O PSP ${atPsp === 'approved' ? 'devolveu' : 'não realizou'} a devolução ${refund.id}, pendente no motor`,
      },
    );
  }
  return item(
    'refund_unsettled',
    { type: 'none' },
    {
      ...about,
      detail: `O PSP diz ${devolucao.status} da devolução ${refund.id}, que o motor registrou como ${refund.status}`,
    },
  );
}

function judgeMedReturn(devolucao: RouteRefundRecord, { charge, medRecorded }: RefundContext): Verdict {
  // Not returned yet: nothing to record until the PSP returns it.
  if (medRecorded || devolucao.status !== 'DEVOLVIDO') return { verdict: 'matched', engineId: null };
  const about = { engineId: charge?.id ?? null, transactionId: charge?.id ?? null, engineAmountCents: null };
  if (charge && (charge.status === 'approved' || charge.status === 'refunded')) {
    return item(
      'med_unrecorded',
      { type: 'record_med' },
      {
        ...about,
        detail: `Devolução ${devolucao.nature} ${devolucao.id} de ${reais(devolucao.amountCents)} não registrada`,
      },
    );
  }
  return item(
    'med_unrecorded',
    { type: 'none' },
    {
      ...about,
      detail: `Devolução ${devolucao.nature} ${devolucao.id} de um Pix sem cobrança aprovada: não pode ser registrada como MED`,
    },
  );
}

/** An envio against the engine's transfer (null: none on this route). */
export function judgeSent(envio: RouteSentRecord, transfer: EngineTransfer | null): Verdict {
  if (!transfer) {
    return item(
      'transfer_unsettled',
      { type: 'none' },
      {
        engineId: null,
        transactionId: null,
        engineAmountCents: null,
        detail: `Envio ${envio.idEnvio} (${envio.status}) que o motor não fez`,
      },
    );
  }
  const about = { engineId: transfer.id, transactionId: transfer.id, engineAmountCents: transfer.amountCents };
  const atPsp = ENVIO_STATUS[envio.status];
  if (atPsp === transfer.status || atPsp === 'pending') return { verdict: 'matched', engineId: transfer.id };
  if (transfer.status === 'pending') {
    const reason = atPsp === 'failed' ? 'Pix não realizado pelo PSP' : null;
    return item(
      'transfer_unsettled',
      { type: 'settle_transfer', outcome: atPsp, reason },
      {
        ...about,
        detail: `O PSP ${atPsp === 'approved' ? 'realizou' : 'não realizou'} o envio, pendente no motor`,
      },
    );
  }
  return item(
    'transfer_unsettled',
    { type: 'none' },
    {
      ...about,
      detail: `O PSP diz ${envio.status} do envio, que o motor registrou como ${transfer.status}`,
    },
  );
}

/** The kinds whose item the run corrects: one found again still `open` is judged and corrected again (a step that stopped midway). */
export const CORRECTING_KINDS: readonly ItemKind[] = ['late_settlement', 'transfer_unsettled', 'refund_unsettled', 'med_unrecorded'];
