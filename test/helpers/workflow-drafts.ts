// Drafts for the workflow tests of test/workflows, and the pending transaction their fake persist
// activities make of one.
import { randomBytes } from 'node:crypto';
import type { ChargeDraft } from '../../src/charges/draft.js';
import type { DraftBasics } from '../../src/transactions/draft.js';
import type { TransferDraft } from '../../src/transfers/draft.js';
import type { Transaction } from '../../src/transactions/serialize.js';

/** The fingerprint of every test draft: an accept with it repeats the first one. */
export const DRAFT_FINGERPRINT = 'f'.repeat(64);

type Amounts = Pick<DraftBasics, 'amountCents' | 'feeCents' | 'netAmountCents'>;

/** A draft's common part: fresh ids (`<idPrefix>_<hex>`, `<externalPrefix>-<hex>`) on the test account, key and simulator route. */
export function draftBasics(idPrefix: string, externalPrefix: string, amounts: Amounts): DraftBasics {
  const id = randomBytes(6).toString('hex');
  return {
    transactionId: `${idPrefix}_${id}`,
    accountId: 'acc_test',
    apiKeyId: 'key_test',
    externalId: `${externalPrefix}-${id}`,
    fingerprint: DRAFT_FINGERPRINT,
    route: 'simulator',
    description: null,
    ...amounts,
  };
}

type KindFields = Pick<Transaction, 'direction' | 'type' | 'method' | 'debitedAmount' | 'recipientAmount' | 'payer' | 'counterparty' | 'expiresAt' | 'createdAt'>;

/** The pending transaction persisted from `draft`; `kind` holds what differs between a charge and a transfer. */
export function pendingTransaction(draft: DraftBasics, kind: KindFields): Transaction {
  return {
    id: draft.transactionId,
    externalId: draft.externalId,
    acquirer: draft.route,
    status: 'pending',
    expired: false,
    processingState: 'monitoring',
    amount: draft.amountCents / 100,
    fee: draft.feeCents / 100,
    netAmount: draft.netAmountCents / 100,
    description: draft.description,
    splitAmount: 0,
    split: [],
    refundedAmount: 0,
    pix: null,
    approvedAt: null,
    updatedAt: kind.createdAt,
    ...kind,
  };
}

/** The pending charge persisted from `draft` at `createdAtMs`, expiring `ttlSeconds` later. */
export function pendingCharge(draft: ChargeDraft, createdAtMs: number, ttlSeconds: number): Transaction {
  return pendingTransaction(draft, {
    direction: 'in',
    type: 'payment',
    method: 'pix',
    debitedAmount: null,
    recipientAmount: null,
    payer: { name: draft.payer.name, document: draft.payer.document, email: null },
    counterparty: null,
    expiresAt: new Date(createdAtMs + ttlSeconds * 1000).toISOString(),
    createdAt: new Date(createdAtMs).toISOString(),
  });
}

/** The pending transfer persisted from `draft` now (its `expiresAt` is informative: 15 minutes on). */
export function pendingTransfer(draft: TransferDraft): Transaction {
  const now = new Date();
  return pendingTransaction(draft, {
    direction: 'out',
    type: 'withdrawal',
    method: draft.method,
    debitedAmount: draft.debitedAmountCents / 100,
    recipientAmount: draft.recipientAmountCents / 100,
    payer: draft.payer,
    counterparty: draft.counterparty,
    expiresAt: new Date(now.getTime() + 900_000).toISOString(),
    createdAt: now.toISOString(),
  });
}

/** A transfer of R$ 100,00 (fee R$ 1,00) to a CPF key, on the simulator route unless `route` says otherwise. */
export function transferDraft(route = 'simulator'): TransferDraft {
  return {
    ...draftBasics('out', 'payout', { amountCents: 10_000, feeCents: 100, netAmountCents: 10_000 }),
    route,
    method: 'pix',
    debitedAmountCents: 10_100,
    recipientAmountCents: 10_000,
    destination: { type: 'pix_key', value: '52998224725', keyType: 'cpf' },
    payer: { name: 'Loja', document: '11222333000181', email: 'loja@example.com' },
    counterparty: { type: 'pix_key', keyType: 'cpf', key: '52998224725' },
  };
}
