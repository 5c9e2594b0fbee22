// Our signer against an independent implementation of the same `t=…,v1=…` HMAC-SHA256 scheme (stripe's).
import fc from 'fast-check';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../src/webhooks/sign.js';

describe('webhook signature', () => {
  it('equals the header stripe computes for the same body, secret and timestamp', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 1, max: 4_102_444_800 }),
        (body, secret, timestamp) => {
          expect(signPayload(secret, body, timestamp)).toBe(Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }));
        },
      ),
    );
  });

  it('is accepted inside the tolerance window and refused outside it or with another key', () => {
    const body = JSON.stringify({
      id: 'evt_txn_1_approved',
      event: 'transaction.approved',
      createdAt: '2026-01-01T00:00:00.000Z',
      data: { amount: 10.5, payer: { name: 'João' } },
    });
    const now = Math.floor(Date.now() / 1000);
    const verify =
      (header: string, secret = 'whsec_a') =>
      () =>
        Stripe.webhooks.constructEvent(body, header, secret, 300);
    expect(verify(signPayload('whsec_a', body, now))()).toMatchObject({ id: 'evt_txn_1_approved' });
    expect(verify(signPayload('whsec_a', body, now - 290))()).toMatchObject({ event: 'transaction.approved' });
    expect(verify(signPayload('whsec_a', body, now - 400))).toThrow(/tolerance/i);
    expect(verify(signPayload('whsec_b', body, now))).toThrow();
    expect(() => Stripe.webhooks.constructEvent(`${body} `, signPayload('whsec_a', body, now), 'whsec_a', 300)).toThrow();
  });
});
