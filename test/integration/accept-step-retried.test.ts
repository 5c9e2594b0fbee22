// An accept step that Temporal runs again after it committed (a worker lost before its result was
// recorded) answers the key's operation as persisted, even when the account's rules refuse by then; a new
// key is refused by them. The key's row is read only when the insert finds it or a rule refuses, so the
// retry must still find it, and nothing is inserted or posted twice.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistCharge } from '../../src/charges/lifecycle.js';
import type { Sql } from '../../src/db/database.js';
import { readBalance } from '../../src/ledger/balance.js';
import { createLogger } from '../../src/runtime/log.js';
import { chargeTransactionId, transferTransactionId } from '../../src/transactions/ids.js';
import { persistTransfer } from '../../src/transfers/lifecycle.js';
import type { ChargeDraft } from '../../src/charges/contract.js';
import type { TransferDraft } from '../../src/transfers/contract.js';
import { expectLedgerConsistent, fundAvailable } from '../helpers/ledger.js';
import { migratedDatabase } from '../helpers/migrated-database.js';
import { insertAccountRow } from '../helpers/transaction-rows.js';

let sql: Sql;
let url: string;

beforeAll(async () => {
  ({ sql, url } = await migratedDatabase());
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const basics = (accountId: string, key: string, transactionId: string) => ({
  transactionId,
  accountId,
  apiKeyId: null as unknown as string,
  externalId: key,
  fingerprint: randomBytes(32).toString('hex'),
  route: 'simulator',
  amountCents: 1_000,
  feeCents: 0,
  netAmountCents: 1_000,
  description: null,
});

// Drafts of runs whose API priced them (no `asked`): their amounts stand, the account's state is checked.
const transferDraft = (accountId: string, key: string): TransferDraft => ({
  ...basics(accountId, key, transferTransactionId(accountId, key)),
  method: 'pix',
  debitedAmountCents: 1_000,
  recipientAmountCents: 1_000,
  destination: { type: 'pix_key', value: '52998224725', keyType: 'cpf' },
  payer: { name: 'Loja Leitura', document: '11222333000181', email: 'loja@example.com' },
  counterparty: {},
});

const chargeDraft = (accountId: string, key: string): ChargeDraft => ({
  ...basics(accountId, key, chargeTransactionId(accountId, key)),
  merchantName: 'Loja Leitura',
  splitAmountCents: 0,
  split: [],
  payer: { name: 'Maria da Silva', document: '52998224725' },
  webhookUrl: null,
});

const rowsOfKey = async (accountId: string, key: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from transactions where account_id = ${accountId} and external_id = ${key}`)[0]!.n;

describe('an accept step run again after it committed', () => {
  it('transfer: answers the persisted transfer once the account is unverified, posts its reservation once; a new key is refused', async () => {
    const accountId = await insertAccountRow(sql);
    await fundAvailable(sql, accountId, 5_000, `test:fund:${accountId}`);
    const deps = { sql, expirySeconds: 900, transferRoute: () => ({}) as never };
    const draft = transferDraft(accountId, 'retried-transfer');

    const first = await persistTransfer(deps, draft);
    expect(first).toMatchObject({ outcome: 'persisted', created: true, transaction: { id: draft.transactionId, status: 'pending' } });
    await sql`update accounts set kyc_status = 'pending' where id = ${accountId}`;

    const again = await persistTransfer(deps, draft);
    expect(again).toMatchObject({ outcome: 'persisted', created: false, transaction: { id: draft.transactionId, status: 'pending' } });
    expect(await rowsOfKey(accountId, draft.externalId)).toBe(1);
    expect(await readBalance(sql, accountId)).toMatchObject({ availableCents: 4_000, reservedCents: 1_000 });

    const other = await persistTransfer(deps, transferDraft(accountId, 'new-transfer'));
    expect(other).toMatchObject({ outcome: 'refused', refusal: { code: 'kyc_required' } });
    expect(await rowsOfKey(accountId, 'new-transfer')).toBe(0);
    await expectLedgerConsistent(url);
  });

  it('charge: answers the persisted charge once the account is blocked; a new key is refused', async () => {
    const accountId = await insertAccountRow(sql);
    const deps = { sql, config: { pixRoutes: [], chargeTtlSeconds: 900 }, log: createLogger('silent') } as never;
    const input = (key: string) => ({ draft: chargeDraft(accountId, key), createdAtMs: Date.now(), ttlSeconds: 900 });
    const retried = input('retried-charge');

    const first = await persistCharge(deps, retried);
    expect(first).toMatchObject({ outcome: 'persisted', created: true, transaction: { id: retried.draft.transactionId } });
    await sql`update accounts set status = 'blocked' where id = ${accountId}`;

    const again = await persistCharge(deps, retried);
    expect(again).toMatchObject({ outcome: 'persisted', created: false, transaction: { id: retried.draft.transactionId } });
    expect(await rowsOfKey(accountId, 'retried-charge')).toBe(1);

    const other = await persistCharge(deps, input('new-charge'));
    expect(other).toMatchObject({ outcome: 'refused', refusal: { code: 'account_unavailable' } });
    expect(await rowsOfKey(accountId, 'new-charge')).toBe(0);
  });
});
