// The published request schemas of POST /transactions and POST /transfers say what the engine enforces:
// an independent JSON Schema validator (ajv) over the schemas as the OpenAPI document carries them
// accepts exactly the bodies the engine's parsers let through their field and shape rules.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseChargeBody, ChargeBodySchema } from '../../src/charges/schema.js';
import { buildBrCode } from '../../src/domain/brcode.js';
import { answerOf } from '../../src/http/errors.js';
import { SchemaComponents } from '../../src/openapi/components.js';
import { parseTransferBody, TransferBodySchema } from '../../src/transfers/schema.js';

// ajv divides binary floats for `multipleOf`; its precision option makes 0.01 exact enough for reais.
const ajv = new Ajv2020({ strict: false, multipleOfPrecision: 9 });
const published = (schema: Parameters<SchemaComponents['inline']>[0]) => new SchemaComponents().inline(schema) as any;
const chargeSchema = published(ChargeBodySchema);
const transferSchema = published(TransferBodySchema);
const acceptsCharge = ajv.compile(chargeSchema);
const acceptsTransfer = ajv.compile(transferSchema);

const payer = { name: 'Maria Souza', document: '529.982.247-25' };
const KEY = { pixKey: '52998224725', pixKeyType: 'cpf' };
const BR_CODE = buildBrCode({
  pixKey: 'fulano@example.com',
  amountCents: 2550,
  txid: 'abc123',
  merchantName: 'Fulano',
  merchantCity: 'Recife',
});

/** What the engine says of a body: accepted, or the code and message of its refusal. */
function engine(parse: () => unknown): string {
  try {
    parse();
    return 'accepted';
  } catch (err) {
    const answer = answerOf(err);
    if (answer) return `${answer.status} ${answer.code}: ${answer.message}`;
    throw err;
  }
}

describe('the published request schemas', () => {
  it('carry the idempotency-key rule, the two-decimal rule, the required fields and the shapes', () => {
    expect(chargeSchema.required).toEqual(['amount', 'payer']);
    expect(chargeSchema.properties.externalId).toMatchObject({ maxLength: 100, pattern: '^[A-Za-z0-9._:/-]{1,100}$' });
    expect(chargeSchema.properties.amount.multipleOf).toBe(0.01);
    expect(chargeSchema.properties.split.items.properties.amount.multipleOf).toBe(0.01);
    expect(chargeSchema.properties.split.items.oneOf).toHaveLength(2);
    expect(transferSchema.properties.externalId).toEqual(chargeSchema.properties.externalId);
    expect(transferSchema.properties.amount.multipleOf).toBe(0.01);
    expect(transferSchema.oneOf.map((shape: any) => shape.title)).toEqual(['Destino (forma moderna)', 'Chave Pix (forma legada)']);
  });

  it.each([
    ['a Pix key as destination', { amount: 10, destination: { type: 'pix_key', value: '52998224725' } }, true],
    [
      'a Pix key as destination, with its type',
      { amount: 10, destination: { type: 'pix_key', value: '52998224725' }, pixKeyType: 'cpf' },
      true,
    ],
    ['a BR Code that defines its amount, without amount', { destination: { type: 'pix_copy_paste', value: BR_CODE } }, true],
    ['the legacy pixKey and pixKeyType', { amount: 10, ...KEY }, true],
    ['no destination at all', { amount: 10 }, false],
    ['destination and pixKey together', { amount: 10, ...KEY, destination: { type: 'pix_key', value: '52998224725' } }, false],
    ['pixKey without pixKeyType', { amount: 10, pixKey: '52998224725' }, false],
    ['pixKeyType with a BR Code destination', { pixKeyType: 'cpf', destination: { type: 'pix_copy_paste', value: BR_CODE } }, false],
    ['a legacy Pix key without amount', { ...KEY }, false],
    ['a Pix key destination without amount', { destination: { type: 'pix_key', value: '52998224725' } }, false],
    ['an amount with three decimals', { amount: 10.001, ...KEY }, false],
    ['an externalId with a space', { amount: 10, ...KEY, externalId: 'pedido 1' }, false],
  ])('transfer, %s: schema and engine agree', (_name, body, valid) => {
    expect(acceptsTransfer(body)).toBe(valid);
    const answer = engine(() => parseTransferBody(body));
    if (valid) expect(answer).toBe('accepted');
    else expect(answer).toMatch(/^400 (invalid_request|invalid_idempotency_key): /);
  });

  it('names the shape a transfer misses, as before the schema said it', () => {
    expect(engine(() => parseTransferBody({ amount: 10 }))).toMatch(/Informe o destino/);
    expect(engine(() => parseTransferBody({ ...KEY }))).toMatch(/amount é obrigatório para chave Pix/);
    expect(engine(() => parseTransferBody({ amount: 10, pixKey: '52998224725' }))).toMatch(/Informe pixKeyType junto com pixKey/);
  });

  it.each([
    ['an amount in reais', { amount: 149.9, payer }, true],
    [
      'amounts floats misjudge (1.15, over R$ 1 million)',
      { amount: 12_345_678.91, payer, split: [{ recipient: 'a@b.co', amount: 1.15 }] },
      true,
    ],
    ['an amount with three decimals', { amount: 10.001, payer }, false],
    ['0.1 + 0.2', { amount: 0.1 + 0.2, payer }, false],
    ['a split amount with three decimals', { amount: 10, payer, split: [{ recipient: 'a@b.co', amount: 1.005 }] }, false],
    ['a split item with amount and percent', { amount: 10, payer, split: [{ recipient: 'a@b.co', amount: 1, percent: 5 }] }, false],
    ['a split item with neither', { amount: 10, payer, split: [{ recipient: 'a@b.co' }] }, false],
    ['an externalId over 100 characters', { amount: 10, payer, externalId: 'k'.repeat(101) }, false],
    ['an externalId with a character outside the rule', { amount: 10, payer, externalId: 'pedido#1' }, false],
  ])('charge, %s: schema and engine agree', (_name, body, valid) => {
    const answer = engine(() => parseChargeBody(body, { webhookAllowInsecure: false }));
    // ajv reads 0.1 + 0.2 as a multiple of 0.01 within its precision; only the engine reads the decimals.
    if (body.amount !== 0.1 + 0.2) expect(acceptsCharge(body)).toBe(valid);
    if (valid) expect(answer).toBe('accepted');
    else expect(answer).toMatch(/^400 (invalid_request|invalid_idempotency_key|SPLIT_INVALID): .*/);
  });

  it('says which decimals are wrong, as before the schema said it', () => {
    expect(engine(() => parseChargeBody({ amount: 10.001, payer }, { webhookAllowInsecure: false }))).toBe(
      '400 invalid_request: amount deve ter no máximo duas casas decimais',
    );
    expect(engine(() => parseTransferBody({ amount: 10.001, ...KEY }))).toBe(
      '400 invalid_request: amount deve ter no máximo duas casas decimais',
    );
  });
});
