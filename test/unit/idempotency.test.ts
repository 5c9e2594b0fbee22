import { describe, expect, it } from 'vitest';
import { newId } from '../../src/accounts/ids.js';
import { checkBodyExternalId, compareWithExisting, fingerprintOf, resolveIdempotencyKey } from '../../src/transactions/idempotency.js';
import { chargeTransactionId, transferTransactionId } from '../../src/transactions/ids.js';
import { transactionEventId } from '../../src/transactions/events.js';
import { medEventId } from '../../src/meds/events.js';
import { itemIdOf, newRunId } from '../../src/reconciliation/ids.js';
import { refundIdOf } from '../../src/refunds/create.js';
import { newRequestId } from '../../src/http/edge.js';
import { refusal } from '../helpers/refusal.js';

describe('idempotency key resolution (spec rules 1–3)', () => {
  it('takes the header, the externalId, or both when equal', () => {
    expect(resolveIdempotencyKey('order-1', undefined)).toBe('order-1');
    expect(resolveIdempotencyKey(undefined, 'order-2')).toBe('order-2');
    expect(resolveIdempotencyKey('a.b_c:d/e-F9', 'a.b_c:d/e-F9')).toBe('a.b_c:d/e-F9');
    expect(resolveIdempotencyKey('', 'order-3')).toBe('order-3');
  });

  it('requires one of them', () => {
    expect(refusal(() => resolveIdempotencyKey(undefined, undefined))).toMatchObject({ status: 400, code: 'idempotency_key_required' });
    expect(refusal(() => resolveIdempotencyKey('', undefined))).toMatchObject({ status: 400, code: 'idempotency_key_required' });
  });

  it('refuses more than 100 characters or characters outside letters, digits and . _ : / -', () => {
    expect(resolveIdempotencyKey('x'.repeat(100), undefined)).toHaveLength(100);
    for (const bad of ['x'.repeat(101), 'com espaço', 'acentuação', 'a+b', 'a#b', 'a@b']) {
      expect(refusal(() => resolveIdempotencyKey(bad, undefined))).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
      expect(refusal(() => resolveIdempotencyKey(undefined, bad))).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
    }
  });

  it('refuses a key with the exact shape of an id the engine generates, which GET /{id} would confuse with that id', () => {
    const txn = chargeTransactionId('acc_1', 'pedido-1');
    const generated = [
      txn,
      transferTransactionId('acc_1', 'saque-1'),
      `med_${'ab12'.repeat(6)}`, // MED ids: `med_` and 24 random hex digits (src/meds/workflow-client.ts)
      newId('acc'),
      newId('key'),
      newRequestId(),
      `whe_${'0f'.repeat(12)}`,
      `whd_${'9e'.repeat(16)}`, // webhook deliveries: `whd_` and 32 hex digits (src/webhooks/dispatch.ts)
      itemIdOf('simulator', 'pix:E1'), // a reconciliation item: the externalId of the deposit that credits it
      refundIdOf('acc_1', 'devolucao-1'),
      newRunId(),
      transactionEventId(txn, 'approved'),
      medEventId(`med_${'cd34'.repeat(6)}`, 'created'),
    ];
    for (const id of generated) {
      expect(
        refusal(() => resolveIdempotencyKey(id, undefined)),
        id,
      ).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
      expect(
        refusal(() => resolveIdempotencyKey(undefined, id)),
        id,
      ).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
      expect(
        refusal(() => checkBodyExternalId({ externalId: id })),
        id,
      ).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
    }
  });

  it('keeps keys that only resemble an id: another length, upper case, a suffix or an unknown prefix', () => {
    const txn = chargeTransactionId('acc_1', 'pedido-1');
    for (const key of [
      'txn_123',
      `${txn}0`,
      txn.slice(0, -1),
      txn.toUpperCase(),
      `${txn}-retry`,
      `pedido_${txn.slice(4)}`,
      'txn_pedido-1001',
    ]) {
      expect(resolveIdempotencyKey(key, undefined)).toBe(key);
    }
  });

  it('answers 409 idempotency_conflict when header and externalId differ', () => {
    expect(refusal(() => resolveIdempotencyKey('a', 'b'))).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });
});

describe('fingerprints of the compared fields', () => {
  it('do not depend on the order of object keys', () => {
    expect(fingerprintOf('charge', { amount: 100, payer: { name: 'A', document: '1' } })).toBe(
      fingerprintOf('charge', { payer: { document: '1', name: 'A' }, amount: 100 }),
    );
  });

  it('change with any compared value and with the kind of operation', () => {
    const base = fingerprintOf('charge', { amount: 100, split: [] });
    expect(fingerprintOf('charge', { amount: 101, split: [] })).not.toBe(base);
    expect(fingerprintOf('charge', { amount: 100, split: [{ recipient: 'x' }] })).not.toBe(base);
    expect(fingerprintOf('transfer', { amount: 100, split: [] })).not.toBe(base);
  });

  it('treat an absent field like an undefined one', () => {
    expect(fingerprintOf('charge', { amount: 1, description: undefined })).toBe(fingerprintOf('charge', { amount: 1 }));
  });

  it('make a repeat with the same fingerprint a repeat and a different one a 409', () => {
    const fingerprint = fingerprintOf('charge', { amount: 1 });
    expect(compareWithExisting(null, fingerprint)).toBe('new');
    expect(compareWithExisting(fingerprint, fingerprint)).toBe('repeat');
    expect(refusal(() => compareWithExisting(fingerprintOf('charge', { amount: 2 }), fingerprint))).toMatchObject({
      status: 409,
      code: 'idempotency_conflict',
    });
  });
});
