// A deposit: money that reaches an account without a charge of its own, recorded as a new approved
// `deposit` transaction (direction in) with its ledger posting (`deposit:<id>:credit`, from `from` to
// the account's available balance) and `transaction.approved`, in the caller's PostgreSQL transaction.
// Reconciliation credits suspense this way; a return of a charge paid by another account of this
// engine credits that account this way (src/returns/payer.ts).
import { createHash } from 'node:crypto';
import type { TxSql } from '../db/database.js';
import { customerAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import { recordTransactionEvent } from './events.js';
import { toTransactionRow, type RawTransactionRow, type TransactionRow } from './row.js';

export interface DepositInput {
  id: string;
  accountId: string;
  /** Unique per account: what the deposit comes from (a reconciliation item, a refund, a MED). */
  externalId: string;
  method: 'pix' | 'internal';
  route: string;
  amountCents: number;
  description: string;
  payer: { name: string; document: string };
  endToEndId: string | null;
  /** The ledger account the money comes from. */
  from: string;
  postingDescription: string;
}

export async function recordDeposit(tx: TxSql, input: DepositInput): Promise<{ row: TransactionRow; eventId: string }> {
  const [raw] = await tx<RawTransactionRow[]>`
    insert into transactions (
      id, account_id, external_id, direction, type, method, status, processing_state, acquirer,
      amount, fee, net_amount, description, payer, fingerprint, end_to_end_id, expires_at, approved_at)
    values (
      ${input.id}, ${input.accountId}, ${input.externalId}, 'in', 'deposit', ${input.method}, 'approved', 'completed', ${input.route},
      ${input.amountCents}, 0, ${input.amountCents}, ${input.description},
      ${tx.json(input.payer)}, ${createHash('sha256').update(input.externalId).digest('hex')}, ${input.endToEndId}, now(), now())
    returning *`;
  const row = toTransactionRow(raw!);
  await post(tx, {
    key: `deposit:${input.id}:credit`,
    transactionId: input.id,
    description: input.postingDescription,
    entries: [
      { account: input.from, amount: -input.amountCents },
      { account: customerAccount(input.accountId, 'available'), amount: input.amountCents },
    ],
  });
  return { row, eventId: await recordTransactionEvent(tx, row) };
}
