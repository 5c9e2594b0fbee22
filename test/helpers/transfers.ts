// Transfers for integration tests: bodies, funding an account through a paid charge, the simulated
// network's answer, and reading the account's ledger rows.
import { expect } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { createCharge, newKey, payCharge, waitForStatus } from './charges.js';
import { poll } from './probe.js';
import { admin, type HttpResult, type Stack } from './stack.js';

type Client = {
  get: (path: string) => Promise<HttpResult>;
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<HttpResult>;
};

export const cpfKeyBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 10,
  pixKey: '529.982.247-25',
  pixKeyType: 'cpf',
  ...overrides,
});

/** POST /transfers with a fresh Idempotency-Key unless one is given (null: no header). */
export function postTransfer(client: Client, body: unknown, key: string | null = newKey('t')): Promise<HttpResult> {
  return client.post('/transfers', body, key === null ? {} : { 'Idempotency-Key': key });
}

/** Credits the account's available balance with exactly `reais` (a paid charge without fee). */
export async function fund(stack: Stack, client: Client, reais: number): Promise<void> {
  const charge = await createCharge(client, { amount: reais });
  expect(charge.fee).toBe(0);
  const paid = await payCharge(stack, charge.id);
  if (paid.status !== 200) throw new Error(`funding payment answered ${paid.status}: ${paid.text}`);
  await waitForStatus(client, charge.id, 'approved');
}

export function completeTransfer(stack: Stack, id: string, outcome: 'approved' | 'failed'): Promise<HttpResult> {
  return admin(stack, 'POST', `/simulator/transfers/${id}/complete`, { outcome });
}

/** The simulated network's 409 for a transfer it has not got yet (any other 409 is a wrong answer). */
const notAtNetworkYet = (res: HttpResult) => res.status === 409 && /ainda não chegou à rede/.test(res.body?.error?.message);

/**
 * Completes a transfer at the simulated network once it has got it, and waits for the engine to settle
 * it: read again on the 409 "not at the network yet" and on 202 (settling), anything else fails at once.
 */
export function completeTransferOnceArrived(stack: Stack, id: string, outcome: 'approved' | 'failed'): Promise<any> {
  return poll(
    () => completeTransfer(stack, id, outcome),
    (res) => res.body.data,
    { notYet: (res) => res.status === 202 || notAtNetworkYet(res) },
  );
}

export async function balanceOf(client: Client): Promise<{ available: number; reserved: number }> {
  const res = await client.get('/balance');
  expect(res.status).toBe(200);
  return { available: res.body.data.available, reserved: res.body.data.reserved };
}

/** Every ledger entry of a transaction, as (posting key, ledger account kind, centavos). */
export async function ledgerEntriesOf(sql: Sql, transactionId: string): Promise<Array<{ key: string; account: string; amount: number }>> {
  const rows = await sql<{ key: string; account: string; amount: bigint }[]>`
    select p.posting_key as key, regexp_replace(e.ledger_account_id, ':\\d{2}$', '') as account, e.amount
    from ledger_postings p join ledger_entries e on e.posting_id = p.id
    where p.transaction_id = ${transactionId}
    order by p.id, e.id`;
  return rows.map((r) => ({ key: r.key, account: r.account, amount: Number(r.amount) }));
}

/**
 * What `ledgerEntriesOf` shows for a settled transfer: `debited` centavos reserved on the paying account,
 * then released to the Pix clearing (`recipient`) and the fee revenue (debited − recipient).
 */
export function settledTransferEntries(transferId: string, accountId: string, debited: number, recipient: number) {
  const reserve = `transfer:${transferId}:reserve`;
  const settle = `transfer:${transferId}:settle`;
  return [
    { key: reserve, account: `${accountId}:available`, amount: -debited },
    { key: reserve, account: `${accountId}:reserved`, amount: debited },
    { key: settle, account: `${accountId}:reserved`, amount: -debited },
    { key: settle, account: 'platform:pix_clearing', amount: recipient },
    { key: settle, account: 'platform:fee_revenue', amount: debited - recipient },
  ];
}
