// A MED as the code sees it (centavos as numbers), mapped from `meds` joined with its transaction.
// Pure types and mapping only.
import type { MedOutcome } from './contract.js';

export const MED_OUTCOMES: readonly MedOutcome[] = ['accepted', 'rejected'];
export const MED_STATUSES = ['open', ...MED_OUTCOMES] as const;
export type MedStatus = (typeof MED_STATUSES)[number];

export interface MedRow {
  id: string;
  accountId: string;
  transactionId: string;
  /** The disputed order's externalId (its idempotency key). */
  externalId: string;
  status: MedStatus;
  reason: string;
  amountCents: number;
  retainedAmountCents: number;
  returnedAmountCents: number;
  deadlineAt: Date;
  overdue: boolean;
  decidedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RawMedRow {
  id: string;
  account_id: string;
  transaction_id: string;
  external_id: string;
  status: string;
  reason: string;
  amount: bigint;
  retained_amount: bigint;
  returned_amount: bigint;
  deadline_at: Date;
  overdue: boolean;
  decided_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function toMedRow(raw: RawMedRow): MedRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    transactionId: raw.transaction_id,
    externalId: raw.external_id,
    status: raw.status as MedStatus,
    reason: raw.reason,
    amountCents: Number(raw.amount),
    retainedAmountCents: Number(raw.retained_amount),
    returnedAmountCents: Number(raw.returned_amount),
    deadlineAt: raw.deadline_at,
    overdue: raw.overdue,
    decidedAt: raw.decided_at,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}
