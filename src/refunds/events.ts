// A refund's events: `refund.created`, then `refund.approved` or `refund.failed`, recorded with the
// change (events/record.ts). They carry the charge's id, so they reach the charge's receivers.
import type { TxSql } from '../db/database.js';
import { recordEvent } from '../events/record.js';
import type { RefundRow } from './row.js';
import { serializeRefund } from './serialize.js';

export type RefundChange = 'created' | 'approved' | 'failed';

export const refundEventId = (refundId: string, change: RefundChange) => `evt_${refundId}_${change}`;

/** `refund.<change>` with id `evt_<rfd>_<change>` and the refund as `data`. */
export function recordRefundEvent(tx: TxSql, refund: RefundRow, change: RefundChange): Promise<string> {
  return recordEvent(tx, {
    id: refundEventId(refund.id, change),
    event: `refund.${change}`,
    accountId: refund.accountId,
    transactionId: refund.transactionId,
    data: serializeRefund(refund),
  });
}
