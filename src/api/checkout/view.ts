// What a payer's page shows, and nothing more: the merchant, the description, what to pay (a charge)
// or to authorize (a recurrence, authorization-view.ts), the Pix code and its QR, when it ends and
// where it stands. No payer data and no engine id go in.
import { amountDueOn, lateSurcharge } from '../../domain/amount-due.js';
import { saoPauloDate } from '../../../contracts/calendar.js';
import { isPastValidity } from '../../domain/due-date-validity.js';
import type { TransactionRow } from '../../transactions/row.js';
import type { AuthorizationTerms } from './authorization-view.js';

/** Where a charge stands on its page. `pending` is, for either kind, the state whose page offers the code. */
export type ChargeState = 'pending' | 'paid' | 'expired' | 'refunded' | 'failed';
/** Where a recurrence's authorization stands on its page. */
export type AuthorizationState = 'pending' | 'authorized' | 'rejected' | 'expired' | 'cancelled' | 'completed';
export type CheckoutState = ChargeState | AuthorizationState;

interface PageBase {
  merchantName: string;
  description: string | null;
  /** Null while the route has not yet made the code. */
  copyPaste: string | null;
  qrPngBase64: string | null;
  /** When the code stops being payable (a charge) or the authorization ends unanswered (a recurrence). */
  expiresAt: Date;
}

export interface ChargeView extends PageBase {
  kind: 'charge';
  state: ChargeState;
  /** What the payer pays (a due-date charge: due today while pending, what was paid once paid). */
  amountCents: number;
  /** A due-date charge's due date (`YYYY-MM-DD`); null for an immediate one. */
  dueDate: string | null;
  /** What paying late adds to a pending due-date charge's amount today (its fine and interest); null when nothing. */
  late: LateSurcharge | null;
}

export interface LateSurcharge {
  cents: number;
  daysLate: number;
  fine: boolean;
  interest: boolean;
}

export interface AuthorizationView extends PageBase {
  kind: 'recurrence';
  state: AuthorizationState;
  terms: AuthorizationTerms;
}

export type CheckoutView = ChargeView | AuthorizationView;
export type CheckoutKind = CheckoutView['kind'];

export const STATE_OF_STATUS: Record<TransactionRow['status'], ChargeState> = {
  pending: 'pending',
  approved: 'paid',
  cancelled: 'expired',
  refunded: 'refunded',
  failed: 'failed',
};

/** What the payer pays, and what paying late adds to it today. */
function amountToPay(row: TransactionRow, now: Date): Pick<ChargeView, 'amountCents' | 'late'> {
  if (row.paidAmountCents !== null) return { amountCents: row.paidAmountCents, late: null };
  const asSent = { amountCents: row.amountCents, late: null };
  if (row.status !== 'pending' || row.dueDate === null || row.billing === null) return asSent;
  const terms = { dueDate: row.dueDate, billing: row.billing };
  const today = saoPauloDate(now);
  if (isPastValidity(terms, today)) return asSent;
  const charge = { ...terms, amountCents: row.amountCents };
  const surcharge = lateSurcharge(charge, today);
  const late =
    surcharge && surcharge.cents > 0 ? { ...surcharge, fine: row.billing.fine !== null, interest: row.billing.interest !== null } : null;
  return { amountCents: amountDueOn(charge, today), late };
}

export function chargeView(row: TransactionRow, merchantName: string, now = new Date()): ChargeView {
  return {
    kind: 'charge',
    merchantName,
    description: row.description,
    ...amountToPay(row, now),
    dueDate: row.dueDate,
    copyPaste: row.pixCopyPaste,
    qrPngBase64: row.pixQrCodeBase64,
    expiresAt: row.expiresAt,
    state: STATE_OF_STATUS[row.status],
  };
}

/** The small JSON the page polls: where the charge or authorization stands, in the page's words. */
export interface CheckoutStatus {
  state: CheckoutState;
  message: string;
  secondsLeft: number;
  /** The Pix code exists (a page opened before it did reloads once it does). */
  ready: boolean;
}

const CHARGE_MESSAGE: Record<ChargeState, string> = {
  pending: 'Aguardando pagamento',
  paid: 'Pagamento confirmado',
  expired: 'Cobrança expirada',
  refunded: 'Pagamento devolvido',
  failed: 'Cobrança indisponível',
};

const AUTHORIZATION_MESSAGE: Record<AuthorizationState, string> = {
  pending: 'Aguardando autorização',
  authorized: 'Autorização confirmada',
  rejected: 'Autorização recusada',
  expired: 'Autorização expirada',
  cancelled: 'Pix Automático cancelado',
  completed: 'Pix Automático encerrado',
};

/** The status line of a page, as the page and its live status say it. */
export type Stance = Pick<ChargeView, 'kind' | 'state'> | Pick<AuthorizationView, 'kind' | 'state'>;

export const stateMessage = (page: Stance): string =>
  page.kind === 'charge' ? CHARGE_MESSAGE[page.state] : AUTHORIZATION_MESSAGE[page.state];

type Timed = Pick<PageBase, 'expiresAt'> & { state: CheckoutState };

export const secondsLeft = ({ state, expiresAt }: Timed, now: Date): number =>
  state === 'pending' ? Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)) : 0;

/** The status of a page: its state and validity, and whether its code exists yet. */
export const statusOf = (page: Stance & Pick<PageBase, 'expiresAt'> & { ready: boolean }, now = new Date()): CheckoutStatus => ({
  state: page.state,
  message: stateMessage(page),
  secondsLeft: secondsLeft(page, now),
  ready: page.ready,
});

export const viewStatus = (view: CheckoutView, now = new Date()): CheckoutStatus =>
  statusOf({ ...view, ready: view.copyPaste !== null }, now);
