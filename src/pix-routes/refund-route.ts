// The refund side of a Pix route: a devolução of a Pix the route received, back to its payer.
// Every call is idempotent by `refundId`: repeating it returns the same answer.

export interface RouteRefundRequest {
  refundId: string;
  /** The received Pix being returned (the charge's end-to-end id); null when the route never told it. */
  endToEndId: string | null;
  amountCents: number;
  description: string | null;
}

/** `routeRef`: the route's id of the devolução (the network's rtrId), null while the route has not told it. */
export type RefundState =
  | { status: 'pending'; routeRef: string | null }
  | { status: 'approved'; routeRef: string | null; settledAt: Date }
  | { status: 'failed'; routeRef: string | null; reason: string };

export interface RefundRoute {
  readonly name: string;
  /** As ChargeRoute.remote: the send call runs as a regular activity and the workflow polls the route. */
  readonly remote: boolean;
  sendRefund(request: RouteRefundRequest): Promise<RefundState>;
  refundStatus(request: RouteRefundRequest): Promise<RefundState>;
}
