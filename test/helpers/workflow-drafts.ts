// Drafts for the workflow tests of test/workflows, and the pending transaction their fake persist
// activities make of one.
import { randomBytes } from 'node:crypto';
import type { ChargeDraft, ChargeTransactionState } from '../../src/charges/contract.js';
import type { DraftBasics, TransactionState } from '../../contracts/transaction.contract.js';
import type { TransferDraft } from '../../src/transfers/contract.js';

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

/** The pending charge persisted from `draft` at `createdAtMs`, expiring `ttlSeconds` later, as its workflow knows it. */
export function pendingCharge(draft: ChargeDraft, createdAtMs: number, ttlSeconds: number): ChargeTransactionState {
  return { id: draft.transactionId, status: 'pending', expiresAtMs: createdAtMs + ttlSeconds * 1000, opened: false };
}

/** The pending transfer persisted from `draft`, as its workflow knows it. */
export function pendingTransfer(draft: TransferDraft): TransactionState {
  return { id: draft.transactionId, status: 'pending' };
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
