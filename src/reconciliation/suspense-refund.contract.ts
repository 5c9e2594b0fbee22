// The contract of the workflow that returns to its payer the money a reconciliation item holds in
// suspense (an operator resolved it `refund`, books.md): it asks the item's route for a devolução
// (natureza ORIGINAL) by the item's id, waits for the route's answer (the `networkAnswered` signal of
// transfer.contract.ts wakes it; it polls meanwhile) and settles it once. One per item, id
// `suspense-refund:<rci id>`, so that asking again joins the same run.
import type { RouteRefundState } from '../refunds/contract.js';

export interface SuspenseRefundInput {
  itemId: string;
}

/** The route's answer, and whether the route is reached over the network (polled as a PSP is). */
export interface SuspenseRefundSent {
  state: RouteRefundState;
  remote: boolean;
}

/** How the devolução ended. */
export type SuspenseRefundWorkflow = (input: SuspenseRefundInput) => Promise<'approved' | 'failed'>;
export const SUSPENSE_REFUND_WORKFLOW = 'suspenseRefundWorkflow';

export const suspenseRefundWorkflowId = (itemId: string): string => `suspense-refund:${itemId}`;
