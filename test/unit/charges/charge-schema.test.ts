import { describe, expect, it } from 'vitest';
import { chargeComparedFields, parseChargeBody, recipientIdentifier } from '../../../src/charges/schema.js';
import { Refusal } from '../../../src/domain/refusal.js';
import { refusalAnswer } from '../../../src/http/errors.js';
import { CPF, CNPJ } from '../../helpers/fixtures.js';

const strict = { webhookAllowInsecure: false };
const body = (overrides: Record<string, unknown> = {}) => ({
  amount: 100,
  payer: { name: 'Maria da Silva', document: CPF.valid },
  ...overrides,
});

function refusal(input: unknown, options = strict): { status: number; code: string; message: string } {
  try {
    parseChargeBody(input, options);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const answer = refusalAnswer(err);
    return { status: answer.status, code: answer.code, message: answer.message };
  }
  throw new Error('expected a refusal');
}

describe('POST /transactions body', () => {
  it('accepts a minimal body and applies the defaults, in centavos with a bare CPF', () => {
    expect(parseChargeBody(body({ amount: 149.9 }), strict)).toEqual({
      amountCents: 14990,
      payer: { name: 'Maria da Silva', document: CPF.validDigits },
      description: null,
      metadata: {},
      coverFee: false,
      split: [],
      webhookUrl: null,
    });
  });

  it.each([
    ['a body that is not an object', [1, 2], 'invalid_request', /objeto JSON/],
    ['no amount', { payer: body().payer }, 'invalid_request', /amount/],
    ['amount as text', body({ amount: '100' }), 'invalid_request', /amount/],
    ['amount zero', body({ amount: 0 }), 'invalid_request', /amount/],
    ['amount with three decimals', body({ amount: 10.001 }), 'invalid_request', /duas casas decimais/],
    ['no payer', { amount: 100 }, 'invalid_request', /payer/],
    ['payer name of two characters', body({ payer: { name: 'Al', document: CPF.valid } }), 'invalid_request', /nome completo/],
    [
      'payer name of two characters padded with spaces',
      body({ payer: { name: '  Al  ', document: CPF.valid } }),
      'invalid_request',
      /nome completo/,
    ],
    ['invalid CPF with punctuation', body({ payer: { name: 'Maria', document: CPF.invalid } }), 'invalid_request', /CPF válido/],
    ['invalid CPF without punctuation', body({ payer: { name: 'Maria', document: '52998224724' } }), 'invalid_request', /CPF válido/],
    ['a CNPJ as payer document', body({ payer: { name: 'Maria', document: CNPJ.valid } }), 'invalid_request', /CPF válido/],
    ['invalid payer e-mail', body({ payer: { name: 'Maria', document: CPF.valid, email: 'nope' } }), 'invalid_request', /e-mail/],
    ['description of 141 characters', body({ description: 'x'.repeat(141) }), 'invalid_request', /140/],
    ['externalId of 101 characters', body({ externalId: 'x'.repeat(101) }), 'invalid_idempotency_key', /100/],
    ['coverFee as text', body({ coverFee: 'yes' }), 'invalid_request', /coverFee/],
    ['webhookUrl over http', body({ webhookUrl: 'http://example.com/hook' }), 'invalid_request', /HTTPS/],
    ['webhookUrl not a URL', body({ webhookUrl: 'not a url' }), 'invalid_request', /HTTPS/],
    ['split not a list', body({ split: {} }), 'invalid_request', /lista/],
    ['split item with neither amount nor percent', body({ split: [{ recipient: 'a@b.co' }] }), 'SPLIT_INVALID', /amount ou percent/],
    [
      'split item with both amount and percent',
      body({ split: [{ recipient: 'a@b.co', amount: 1, percent: 1 }] }),
      'SPLIT_INVALID',
      /amount ou percent/,
    ],
    ['split amount below 0.01', body({ split: [{ recipient: 'a@b.co', amount: 0.001 }] }), 'SPLIT_INVALID', /0,01/],
    ['split percent above 100', body({ split: [{ recipient: 'a@b.co', percent: 100.5 }] }), 'SPLIT_INVALID', /100/],
    ['split percent below 0.01', body({ split: [{ recipient: 'a@b.co', percent: 0 }] }), 'SPLIT_INVALID', /0,01/],
    [
      'split amount with three decimals',
      body({ split: [{ recipient: 'a@b.co', amount: 1.005 }] }),
      'invalid_request',
      /duas casas decimais/,
    ],
    [
      'split recipient that is no identifier',
      body({ split: [{ recipient: 'fulano', amount: 1 }] }),
      'SPLIT_RECIPIENT_INVALID',
      /recipient/,
    ],
    [
      'split recipient that is an invalid CPF',
      body({ split: [{ recipient: CPF.invalid, amount: 1 }] }),
      'SPLIT_RECIPIENT_INVALID',
      /recipient/,
    ],
    ['split recipient empty', body({ split: [{ recipient: '', amount: 1 }] }), 'SPLIT_RECIPIENT_INVALID', /recipient/],
  ])('refuses %s', (_label, input, code, message) => {
    const error = refusal(input);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });

  it('refuses more than 10 split recipients with SPLIT_TOO_MANY_RECIPIENTS, before looking at the items', () => {
    const split = Array.from({ length: 11 }, (_, i) => ({ recipient: `r${i}@example.com` }));
    expect(refusal(body({ split }))).toMatchObject({ status: 400, code: 'SPLIT_TOO_MANY_RECIPIENTS' });
    const ten = Array.from({ length: 10 }, (_, i) => ({ recipient: `r${i}@example.com`, amount: 1 }));
    expect(parseChargeBody(body({ split: ten }), strict).split).toHaveLength(10);
  });

  it('accepts the limits themselves: 100-character externalId, 140-character description, percent 100', () => {
    const parsed = parseChargeBody(
      body({ externalId: 'k'.repeat(100), description: 'd'.repeat(140), split: [{ recipient: 'a@b.co', percent: 100 }] }),
      strict,
    );
    expect(parsed.externalId).toHaveLength(100);
    expect(parsed.description).toHaveLength(140);
    expect(parsed.split).toEqual([{ recipient: 'a@b.co', percent: 100 }]);
  });

  it('reads null optional fields as absent (description, payer.email, webhookUrl), with the same compared fields', () => {
    const withNulls = parseChargeBody(
      body({ description: null, webhookUrl: null, payer: { name: 'Maria da Silva', document: CPF.valid, email: null } }),
      strict,
    );
    const without = parseChargeBody(body(), strict);
    expect(withNulls).toEqual(without);
    expect(chargeComparedFields(withNulls)).toEqual(chargeComparedFields(without));
  });

  it('refuses a webhookUrl on a literal private address or with credentials, in secure mode', () => {
    expect(refusal(body({ webhookUrl: 'http://example.com/hook' }))).toMatchObject({ code: 'invalid_request', message: /webhookUrl/ });
    expect(refusal(body({ webhookUrl: 'https://user:pw@example.com/hook' }))).toMatchObject({
      code: 'invalid_request',
      message: /webhookUrl/,
    });
  });

  it('allows an http webhookUrl only in insecure mode', () => {
    expect(parseChargeBody(body({ webhookUrl: 'http://127.0.0.1:9/hook' }), { webhookAllowInsecure: true }).webhookUrl).toBe(
      'http://127.0.0.1:9/hook',
    );
    expect(parseChargeBody(body({ webhookUrl: 'https://example.com/hook' }), strict).webhookUrl).toBe('https://example.com/hook');
  });

  it('reads split amounts in centavos and keeps percents', () => {
    const parsed = parseChargeBody(
      body({
        split: [
          { recipient: 'a@b.co', amount: 12.34, description: 'parceiro' },
          { recipient: 'acc_abc', percent: 2.5 },
        ],
      }),
      strict,
    );
    expect(parsed.split).toEqual([
      { recipient: 'a@b.co', amountCents: 1234, description: 'parceiro' },
      { recipient: 'acc_abc', percent: 2.5 },
    ]);
  });
});

describe('split recipient identifiers', () => {
  it('recognise account ids, e-mails and CPF/CNPJ (normalised)', () => {
    expect(recipientIdentifier('acc_0123abcd')).toEqual({ kind: 'account', value: 'acc_0123abcd' });
    expect(recipientIdentifier(' Loja@Example.COM ')).toEqual({ kind: 'email', value: 'loja@example.com' });
    expect(recipientIdentifier(CPF.valid)).toEqual({ kind: 'document', value: CPF.validDigits });
    expect(recipientIdentifier(CNPJ.valid)).toEqual({ kind: 'document', value: CNPJ.validDigits });
    expect(recipientIdentifier('loja')).toBeNull();
  });
});

describe('compared fields of a charge (idempotency rule 6)', () => {
  const compared = (input: Record<string, unknown>) => chargeComparedFields(parseChargeBody(input, { webhookAllowInsecure: true }));

  it('ignore webhookUrl and the document mask, and see every compared field', () => {
    expect(compared(body({ webhookUrl: 'https://a.example/x' }))).toEqual(compared(body({ webhookUrl: 'https://b.example/y' })));
    expect(compared(body())).toEqual(compared(body({ payer: { name: 'Maria da Silva', document: CPF.validDigits } })));
    for (const change of [
      { amount: 101 },
      { payer: { name: 'Maria Souza', document: CPF.valid } },
      { payer: { name: 'Maria da Silva', document: CPF.other } },
      { payer: { name: 'Maria da Silva', document: CPF.valid, email: 'm@example.com' } },
      { description: 'outra' },
      { coverFee: true },
      { split: [{ recipient: 'a@b.co', amount: 1 }] },
    ]) {
      expect(compared(body(change))).not.toEqual(compared(body()));
    }
  });

  it('treat coverFee false like coverFee absent', () => {
    expect(compared(body({ coverFee: false }))).toEqual(compared(body()));
  });
});
