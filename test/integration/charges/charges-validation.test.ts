// Every refusal of POST /transactions over HTTP: status, code, a Portuguese message, and nothing created.
import { beforeAll, describe, expect, it } from 'vitest';
import { chargeBody, newKey, postCharge } from '../../helpers/charges.js';
import { CPF, createAccount, createMerchant, patchAccount } from '../../helpers/fixtures.js';
import { liveStack } from '../../helpers/live-stack.js';

type Merchant = Awaited<ReturnType<typeof createMerchant>>;

describe('POST /transactions refusals', () => {
  const live = liveStack();
  let merchant: Merchant;
  let partner: any;
  let blocked: any;
  let unverified: any;

  beforeAll(async () => {
    merchant = await createMerchant(live.stack, { fees: { charge: { fixed: 2, percent: 1 } } });
    partner = await createAccount(live.stack, { email: `parceiro.${Date.now()}@example.com` });
    blocked = await createAccount(live.stack);
    await patchAccount(live.stack, blocked.id, { status: 'blocked' });
    unverified = await createAccount(live.stack, { email: `pendente.${Date.now()}@example.com`, kycStatus: 'pending' });
  });

  const payer = { name: 'Maria da Silva', document: CPF.valid };
  const rows: Array<[string, () => { body: unknown; key?: string | null; headers?: Record<string, string> }, number, string, RegExp]> = [
    ['no Idempotency-Key and no externalId', () => ({ body: chargeBody(), key: null }), 400, 'idempotency_key_required', /Idempotency-Key/],
    ['a key with a space', () => ({ body: chargeBody(), key: 'pedido 1' }), 400, 'invalid_idempotency_key', /100 caracteres/],
    ['a key of 101 characters', () => ({ body: chargeBody(), key: 'k'.repeat(101) }), 400, 'invalid_idempotency_key', /100 caracteres/],
    [
      'an externalId with a bad character',
      () => ({ body: chargeBody({ externalId: 'pedido#1' }), key: null }),
      400,
      'invalid_idempotency_key',
      /100 caracteres/,
    ],
    [
      'header and externalId that differ',
      () => ({ body: chargeBody({ externalId: 'a-1' }), key: 'a-2' }),
      409,
      'idempotency_conflict',
      /externalId/,
    ],
    [
      'payer name shorter than 3 characters',
      () => ({ body: chargeBody({ payer: { ...payer, name: 'Jo' } }) }),
      400,
      'invalid_request',
      /nome completo/,
    ],
    [
      'an invalid CPF with punctuation',
      () => ({ body: chargeBody({ payer: { ...payer, document: CPF.invalid } }) }),
      400,
      'invalid_request',
      /CPF válido/,
    ],
    [
      'an invalid CPF without punctuation',
      () => ({ body: chargeBody({ payer: { ...payer, document: CPF.invalid.replace(/\D/g, '') } }) }),
      400,
      'invalid_request',
      /CPF válido/,
    ],
    ['amount below the minimum', () => ({ body: chargeBody({ amount: 0.99 }) }), 400, 'invalid_request', /fora dos limites/],
    ['amount above the maximum', () => ({ body: chargeBody({ amount: 10000.01 }) }), 400, 'invalid_request', /fora dos limites/],
    ['amount not greater than the fee', () => ({ body: chargeBody({ amount: 2.02 }) }), 400, 'invalid_request', /maior que a taxa/],
    [
      'amount with more than two decimals',
      () => ({ body: chargeBody({ amount: 100.123 }) }),
      400,
      'invalid_request',
      /duas casas decimais/,
    ],
    ['description over 140 characters', () => ({ body: chargeBody({ description: 'd'.repeat(141) }) }), 400, 'invalid_request', /140/],
    [
      'externalId over 100 characters',
      () => ({ body: chargeBody({ externalId: 'e'.repeat(101) }), key: null }),
      400,
      'invalid_idempotency_key',
      /100/,
    ],
    [
      'webhookUrl that is not an http(s) URL',
      () => ({ body: chargeBody({ webhookUrl: 'ftp://example.com/x' }) }),
      400,
      'invalid_request',
      /webhookUrl/,
    ],
    ['webhookUrl that is no URL at all', () => ({ body: chargeBody({ webhookUrl: 'hook' }) }), 400, 'invalid_request', /webhookUrl/],
    [
      'split item without amount or percent',
      () => ({ body: chargeBody({ split: [{ recipient: partner.email }] }) }),
      400,
      'SPLIT_INVALID',
      /amount ou percent/,
    ],
    [
      'split item with amount and percent',
      () => ({ body: chargeBody({ split: [{ recipient: partner.email, amount: 1, percent: 1 }] }) }),
      400,
      'SPLIT_INVALID',
      /amount ou percent/,
    ],
    [
      'split recipient that identifies nothing',
      () => ({ body: chargeBody({ split: [{ recipient: 'parceiro', amount: 1 }] }) }),
      400,
      'SPLIT_RECIPIENT_INVALID',
      /recipient/,
    ],
    [
      '11 split recipients',
      () => ({ body: chargeBody({ split: Array.from({ length: 11 }, (_, i) => ({ recipient: `p${i}@example.com`, amount: 1 })) }) }),
      400,
      'SPLIT_TOO_MANY_RECIPIENTS',
      /10/,
    ],
    [
      'split recipient with no account',
      () => ({ body: chargeBody({ split: [{ recipient: 'ninguem@example.com', amount: 1 }] }) }),
      404,
      'SPLIT_RECIPIENT_NOT_FOUND',
      /não encontrada/,
    ],
    [
      'split recipient whose account is blocked',
      () => ({ body: chargeBody({ split: [{ recipient: blocked.id, amount: 1 }] }) }),
      404,
      'SPLIT_RECIPIENT_NOT_FOUND',
      /não encontrada/,
    ],
    [
      'split recipient whose KYC is pending (by id)',
      () => ({ body: chargeBody({ split: [{ recipient: unverified.id, amount: 1 }] }) }),
      404,
      'SPLIT_RECIPIENT_NOT_FOUND',
      /não encontrada/,
    ],
    [
      'split recipient whose KYC is pending (by e-mail)',
      () => ({ body: chargeBody({ split: [{ recipient: unverified.email, amount: 1 }] }) }),
      404,
      'SPLIT_RECIPIENT_NOT_FOUND',
      /não encontrada/,
    ],
    [
      'split to the account itself',
      () => ({ body: chargeBody({ split: [{ recipient: merchant.account.id, amount: 1 }] }) }),
      409,
      'SPLIT_RECIPIENT_SELF',
      /própria conta/,
    ],
    [
      'the same recipient twice (by e-mail and by id)',
      () => ({
        body: chargeBody({
          split: [
            { recipient: partner.email, amount: 1 },
            { recipient: partner.id, percent: 1 },
          ],
        }),
      }),
      409,
      'SPLIT_RECIPIENT_DUPLICATED',
      /repetido/,
    ],
    [
      'a split larger than the sale after the fee',
      () => ({ body: chargeBody({ amount: 100, split: [{ recipient: partner.id, percent: 99 }] }) }),
      422,
      'SPLIT_EXCEEDS_SALE',
      /não cabe/,
    ],
  ];

  /** The field each refusal blames (`param`); the others blame no single body field. */
  const PARAMS: Record<string, string> = {
    'an externalId with a bad character': '/externalId',
    'payer name shorter than 3 characters': '/payer/name',
    'an invalid CPF with punctuation': '/payer/document',
    'an invalid CPF without punctuation': '/payer/document',
    'amount with more than two decimals': '/amount',
    'amount below the minimum': '/amount',
    'amount above the maximum': '/amount',
    'description over 140 characters': '/description',
    'externalId over 100 characters': '/externalId',
    'webhookUrl that is not an http(s) URL': '/webhookUrl',
    'webhookUrl that is no URL at all': '/webhookUrl',
    'split item without amount or percent': '/split/0',
    'split item with amount and percent': '/split/0',
    'split recipient that identifies nothing': '/split/0/recipient',
    '11 split recipients': '/split',
  };

  it.each(rows)('refuses %s', async (label, make, status, code, message) => {
    const { body, key } = make();
    const res = await postCharge(merchant.client, body, key === undefined ? newKey() : key);
    expect(res.status).toBe(status);
    const param = PARAMS[label];
    expect(res.body).toEqual({
      success: false,
      error: { code, message: expect.stringMatching(message), ...(param ? { param } : {}) },
      requestId: expect.any(String),
    });
  });

  it('created nothing for any of them', async () => {
    const list = await merchant.client.get('/transactions');
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBe(0);
  });

  it('refuses with 422 operation_refused when Pix receiving is disabled, and honours per-account limits', async () => {
    const other = await createMerchant(live.stack);
    await patchAccount(live.stack, other.account.id, { pixReceivingEnabled: false });
    const refused = await postCharge(other.client, chargeBody());
    expect(refused.status).toBe(422);
    expect(refused.body.error).toEqual({
      code: 'operation_refused',
      message: expect.stringMatching(/recebimento via Pix está desativado/),
    });

    await patchAccount(live.stack, other.account.id, { pixReceivingEnabled: true, limits: { chargeMin: 5, chargeMax: 20000 } });
    expect((await postCharge(other.client, chargeBody({ amount: 4.99 }))).body.error.code).toBe('invalid_request');
    const large = await postCharge(other.client, chargeBody({ amount: 15000 }));
    expect(large.status).toBe(201);
    expect(large.body.data.amount).toBe(15000);
  });

  it('holds a limit set above what a BR Code carries (before the admin API bounded it) to R$ 9.999.999.999,99: 400, never a 500', async () => {
    const other = await createMerchant(live.stack);
    await live.sql`update accounts set charge_max = 100000000000000 where id = ${other.account.id}`;
    const above = await postCharge(other.client, chargeBody({ amount: 10_000_000_000 }));
    expect(above.status).toBe(400);
    expect(above.body.error).toEqual({ code: 'invalid_request', message: expect.stringMatching(/9\.999\.999\.999,99/), param: '/amount' });
    const most = await postCharge(other.client, chargeBody({ amount: 9_999_999_999.99 }));
    expect(most.status).toBe(201);
    expect(most.body.data.amount).toBe(9_999_999_999.99);
    expect(most.body.data.pix.copyPaste).toContain('54139999999999.99');
  });
});
