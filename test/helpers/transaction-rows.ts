// Read-model rows written straight into PostgreSQL, for tests of the read side that must not depend
// on the charge and transfer workflows (and for states those cannot reach quickly).
import { randomBytes } from 'node:crypto';
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import type { Sql } from '../../src/db/database.js';

const hex = () => randomBytes(8).toString('hex');

export async function insertAccountRow(sql: Sql, id = `acc_${hex()}`): Promise<string> {
  await sql`insert into accounts (id, name, document, email, kyc_status) values (${id}, 'Loja Leitura', ${generateCnpj()}, ${`${id}@example.com`}, 'approved')`;
  return id;
}

export interface TransactionRowInput {
  id?: string;
  externalId?: string;
  kind?: 'charge' | 'transfer';
  status?: 'pending' | 'approved' | 'failed' | 'cancelled' | 'refunded';
  amountCents?: number;
  feeCents?: number;
  createdAt?: Date;
  payer?: Record<string, unknown>;
  split?: unknown[];
  splitAmountCents?: number;
}

/** Inserts a charge (default) or transfer row and returns its id. */
export async function insertTransactionRow(sql: Sql, accountId: string, input: TransactionRowInput = {}): Promise<string> {
  const charge = (input.kind ?? 'charge') === 'charge';
  const id = input.id ?? `${charge ? 'txn' : 'out'}_${hex()}`;
  const amount = input.amountCents ?? 10_000;
  const fee = input.feeCents ?? 199;
  const split = input.splitAmountCents ?? 0;
  const createdAt = input.createdAt ?? new Date();
  const status = input.status ?? 'pending';
  await sql`
    insert into transactions (
      id, account_id, external_id, direction, type, method, status, processing_state, acquirer,
      amount, fee, net_amount, debited_amount, recipient_amount, split_amount, split, description, payer,
      pix_copy_paste, pix_qr_code_base64, fingerprint, expires_at, approved_at, created_at, updated_at
    ) values (
      ${id}, ${accountId}, ${input.externalId ?? `ext-${hex()}`}, ${charge ? 'in' : 'out'}, ${charge ? 'payment' : 'withdrawal'}, 'pix',
      ${status}, ${status === 'pending' ? 'monitoring' : 'completed'}, 'simulator',
      ${amount}, ${fee}, ${amount - fee - split}, ${charge ? null : amount + fee}, ${charge ? null : amount}, ${split},
      ${JSON.stringify(input.split ?? [])}::text::jsonb, 'Pedido de teste',
      ${JSON.stringify(input.payer ?? { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' })}::text::jsonb,
      ${charge ? '00020101021226...6304ABCD' : null}, ${charge ? 'iVBORw0KGgo=' : null}, ${hex()},
      ${new Date(createdAt.getTime() + 15 * 60_000)}, ${status === 'approved' ? createdAt : null}, ${createdAt}, ${createdAt}
    )`;
  return id;
}
