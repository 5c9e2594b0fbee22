// What a payer's page shows, and nothing more: the merchant, the description, what to pay, the Pix
// code and its QR, when it ends and where it stands. Built from a charge here; a recurrence's
// authorization builds the same view from its own row. No payer data and no engine id go in.
import { amountDueOn } from '../../domain/amount-due.js';
import { saoPauloDate } from '../../domain/calendar.js';
import { isPastValidity } from '../../domain/due-date-validity.js';
import type { TransactionRow } from '../../transactions/row.js';

export type CheckoutState = 'pending' | 'paid' | 'expired' | 'refunded' | 'failed';

export interface CheckoutView {
  merchantName: string;
  description: string | null;
  /** What the payer pays (a due-date charge: due today while pending, what was paid once paid). */
  amountCents: number;
  /** A due-date charge's due date (`YYYY-MM-DD`); null for an immediate one. */
  dueDate: string | null;
  /** Null while the route has not yet made the code. */
  copyPaste: string | null;
  qrPngBase64: string | null;
  expiresAt: Date;
  state: CheckoutState;
}

export const STATE_OF_STATUS: Record<TransactionRow['status'], CheckoutState> = {
  pending: 'pending',
  approved: 'paid',
  cancelled: 'expired',
  refunded: 'refunded',
  failed: 'failed',
};

function amountToPay(row: TransactionRow, now: Date): number {
  if (row.paidAmountCents !== null) return row.paidAmountCents;
  if (row.status !== 'pending' || row.dueDate === null || row.billing === null) return row.amountCents;
  const terms = { dueDate: row.dueDate, billing: row.billing };
  const today = saoPauloDate(now);
  return isPastValidity(terms, today) ? row.amountCents : amountDueOn({ ...terms, amountCents: row.amountCents }, today);
}

export function chargeView(row: TransactionRow, merchantName: string, now = new Date()): CheckoutView {
  return {
    merchantName,
    description: row.description,
    amountCents: amountToPay(row, now),
    dueDate: row.dueDate,
    copyPaste: row.pixCopyPaste,
    qrPngBase64: row.pixQrCodeBase64,
    expiresAt: row.expiresAt,
    state: STATE_OF_STATUS[row.status],
  };
}

/** The small JSON the page polls: where the charge stands, in the page's words. */
export interface CheckoutStatus {
  state: CheckoutState;
  message: string;
  secondsLeft: number;
  /** The Pix code exists (a page opened before it did reloads once it does). */
  ready: boolean;
}

export const STATE_MESSAGE: Record<CheckoutState, string> = {
  pending: 'Aguardando pagamento',
  paid: 'Pagamento confirmado',
  expired: 'Cobrança expirada',
  refunded: 'Pagamento devolvido',
  failed: 'Cobrança indisponível',
};

type Timed = Pick<CheckoutView, 'state' | 'expiresAt'>;

export const secondsLeft = ({ state, expiresAt }: Timed, now: Date): number =>
  state === 'pending' ? Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)) : 0;

/** The status of a page's charge: its state and validity, and whether its code exists yet. */
export const statusOf = (charge: Timed & { ready: boolean }, now = new Date()): CheckoutStatus => ({
  state: charge.state,
  message: STATE_MESSAGE[charge.state],
  secondsLeft: secondsLeft(charge, now),
  ready: charge.ready,
});

export const viewStatus = (view: CheckoutView, now = new Date()): CheckoutStatus =>
  statusOf({ ...view, ready: view.copyPaste !== null }, now);
