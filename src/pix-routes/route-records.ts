// What a Pix route's own records say happened in a window of time: the Pix it received (with their
// devoluções) and the envios it sent. Reconciliation reads them page by page and compares them with
// the engine's ledger; they are the route's word, settled without a further lookup (books.md).
// The simulator reads its simulated network; a `bcb-api-pix` route reads `GET /pix?inicio&fim` and
// Efí's `GET /v2/gn/pix/enviados?inicio&fim`, every page.

export type RouteRefundNature = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

/**
 * The natures of a devolução made within the MED (the standard's Devolucao.natureza): the PSP returned the
 * money to the payer without the receiver asking, and the engine records it as an accepted MED.
 * MED_PIX_AUTOMATICO is the MED of Pix Automático (pacs.008 REFU), which this engine does not issue but a
 * PSP may still list under a received Pix.
 */
export const MED_REFUND_NATURES: readonly string[] = ['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'] satisfies RouteRefundNature[];

/** A devolução of a received Pix, as the route lists it. */
export interface RouteRefundRecord {
  /** The devolução's id at the route (for a refund of the engine: the refund id without `_`). */
  id: string;
  /** The network's id of the devolução (rtrId), when the route tells it. */
  rtrId: string | null;
  amountCents: number;
  nature: RouteRefundNature;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  /** The route's `motivo`, when it gives one. */
  reason: string | null;
  requestedAt: Date;
  settledAt: Date | null;
}

/** A Pix the route received. */
export interface RouteReceivedRecord {
  endToEndId: string;
  /** The charge's txid the Pix names, or null for a Pix with none (to the key, unasked). */
  txid: string | null;
  amountCents: number;
  at: Date;
  payer: { name: string | null; document: string | null };
  refunds: RouteRefundRecord[];
}

/** An envio the route sent. */
export interface RouteSentRecord {
  /** The envio's id at the route (a transfer's id without `_`). */
  idEnvio: string;
  endToEndId: string | null;
  amountCents: number;
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  at: Date;
}

/** The window [from, to) of a route's records, one page per iteration (a page is never all of a day). */
export interface RouteRecords {
  readonly name: string;
  received(from: Date, to: Date): AsyncIterable<RouteReceivedRecord[]>;
  /** Nothing for a route without a send API. */
  sent(from: Date, to: Date): AsyncIterable<RouteSentRecord[]>;
}
