import { describe, expect, it } from 'vitest';
import { compareWithExisting, fingerprintOf, resolveIdempotencyKey } from '../../src/charges/idempotency.js';
import { ApiError } from '../../src/http/errors.js';

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('idempotency key resolution (spec rules 1–3)', () => {
  it('takes the header, the externalId, or both when equal', () => {
    expect(resolveIdempotencyKey('order-1', undefined)).toBe('order-1');
    expect(resolveIdempotencyKey(undefined, 'order-2')).toBe('order-2');
    expect(resolveIdempotencyKey('a.b_c:d/e-F9', 'a.b_c:d/e-F9')).toBe('a.b_c:d/e-F9');
    expect(resolveIdempotencyKey('', 'order-3')).toBe('order-3');
  });

  it('requires one of them', () => {
    expect(errorOf(() => resolveIdempotencyKey(undefined, undefined))).toMatchObject({ status: 400, code: 'idempotency_key_required' });
    expect(errorOf(() => resolveIdempotencyKey('', undefined))).toMatchObject({ status: 400, code: 'idempotency_key_required' });
  });

  it('refuses more than 100 characters or characters outside letters, digits and . _ : / -', () => {
    expect(resolveIdempotencyKey('x'.repeat(100), undefined)).toHaveLength(100);
    for (const bad of ['x'.repeat(101), 'com espaço', 'acentuação', 'a+b', 'a#b', 'a@b']) {
      expect(errorOf(() => resolveIdempotencyKey(bad, undefined))).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
      expect(errorOf(() => resolveIdempotencyKey(undefined, bad))).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
    }
  });

  it('answers 409 idempotency_conflict when header and externalId differ', () => {
    expect(errorOf(() => resolveIdempotencyKey('a', 'b'))).toMatchObject({ status: 409, code: 'idempotency_conflict' });
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
    expect(errorOf(() => compareWithExisting(fingerprintOf('charge', { amount: 2 }), fingerprint))).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });
});
