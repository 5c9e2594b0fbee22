import { describe, expect, it } from 'vitest';
import type { Account } from '../../../src/accounts/account.js';
import { buildBrCode } from '../../../src/domain/brcode.js';
import { qrPngBase64 } from '../../../src/domain/qrcode.js';
import { priceTransfer, requestedAmountCents, transferComparedFields } from '../../../src/transfers/amounts.js';
import { readQrImageDestination } from '../../../src/transfers/destination.js';
import { parseTransferBody } from '../../../src/transfers/schema.js';
import { refusal } from '../../helpers/refusal.js';

const CODE_WITH_AMOUNT = buildBrCode({
  pixKey: 'fulano@example.com',
  amountCents: 2550,
  txid: 'abc123',
  merchantName: 'Fulano',
  merchantCity: 'Recife',
});
const CODE_WITHOUT_AMOUNT = buildBrCode({ pixKey: '52998224725', txid: 'x1', merchantName: 'Fulano', merchantCity: 'Recife' });

function account(overrides: Partial<Account> = {}): Account {
  return {
    id: 'acc_test',
    name: 'Loja',
    document: '11222333000181',
    email: 'loja@example.com',
    kycStatus: 'approved',
    status: 'active',
    withdrawalsBlocked: false,
    pixReceivingEnabled: true,
    fees: { charge: { fixedCents: 0, percent: 0 }, transfer: { fixedCents: 0, percent: 0 } },
    limits: { chargeMinCents: 100, chargeMaxCents: 1_000_000, transferMinCents: 300 },
    route: 'simulator',
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

describe('parseTransferBody: refusals', () => {
  it.each([
    ['not an object', 'x', /corpo/],
    ['no destination at all', { amount: 10 }, /destino/],
    ['amount with three decimals', { amount: 10.123, pixKey: '52998224725', pixKeyType: 'cpf' }, /duas casas/],
    ['amount zero', { amount: 0, pixKey: '52998224725', pixKeyType: 'cpf' }, /amount/],
    ['amount as text', { amount: '10', pixKey: '52998224725', pixKeyType: 'cpf' }, /amount/],
    ['pixKey without pixKeyType', { amount: 10, pixKey: '52998224725' }, /pixKeyType/],
    ['unknown pixKeyType', { amount: 10, pixKey: '52998224725', pixKeyType: 'evp' }, /pixKeyType/],
    ['cpf with wrong check digits', { amount: 10, pixKey: '529.982.247-24', pixKeyType: 'cpf' }, /CPF/],
    ['cnpj with wrong check digits', { amount: 10, pixKey: '11222333000180', pixKeyType: 'cnpj' }, /CNPJ/],
    ['bad e-mail', { amount: 10, pixKey: 'fulano@', pixKeyType: 'email' }, /e-mail/],
    ['phone without +55', { amount: 10, pixKey: '11987654321', pixKeyType: 'phone' }, /\+55/],
    ['random key not a UUID', { amount: 10, pixKey: '1234-abcd', pixKeyType: 'random' }, /aleatória/],
    ['cpf declared as phone', { amount: 10, pixKey: '52998224725', pixKeyType: 'phone' }, /telefone/],
    [
      'destination and pixKey together',
      { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', destination: { type: 'pix_key', value: '52998224725' } },
      /não ambos/,
    ],
    ['unknown destination type', { amount: 10, destination: { type: 'iban', value: 'x' } }, /destination.type/],
    ['destination without value', { amount: 10, destination: { type: 'pix_key' } }, /destination.value/],
    ['empty destination value', { amount: 10, destination: { type: 'pix_key', value: '' } }, /destination.value/],
    ['ambiguous bare digits as pix_key', { amount: 10, destination: { type: 'pix_key', value: '11987654321' } }, /\+55/],
    ['invalid pix_key', { amount: 10, destination: { type: 'pix_key', value: 'qualquer coisa' } }, /inválida/],
    [
      'copy-and-paste with a broken CRC',
      { destination: { type: 'pix_copy_paste', value: `${CODE_WITH_AMOUNT.slice(0, -4)}0000` } },
      /BR Code/,
    ],
    ['copy-and-paste that is not a BR Code', { destination: { type: 'pix_copy_paste', value: 'pague-me' } }, /BR Code/],
    ['qr_code that is neither code nor image', { destination: { type: 'qr_code', value: 'aGVsbG8=' } }, /QR code/],
    [
      'pixKeyType with a code destination',
      { pixKeyType: 'cpf', destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } },
      /pixKeyType/,
    ],
    ['description over 140', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', description: 'x'.repeat(141) }, /description/],
    ['externalId not a text', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', externalId: 12 }, /externalId/],
    ['coverFee as text', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', coverFee: 'yes' }, /coverFee/],
  ])('%s → 400 invalid_request', (_name, body, message) => {
    const err = refusal(() => parseTransferBody(body));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toMatch(message);
  });
});

describe('parseTransferBody: externalId is judged as an idempotency key', () => {
  it.each<[string, string, Record<string, unknown>?]>([
    ['over 100 characters', 'x'.repeat(101)],
    ['over 100 characters with an invalid body', 'x'.repeat(101), { amount: 'dez' }],
    ['a space', 'pedido 1'],
    ['an accent', 'pedido-ç'],
    ['empty', ''],
  ])('%s → 400 invalid_idempotency_key', (_name, externalId, extra = {}) => {
    const err = refusal(() => parseTransferBody({ amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', externalId, ...extra }));
    expect([err.status, err.code]).toEqual([400, 'invalid_idempotency_key']);
  });

  it('accepts 100 characters of letters, digits and . _ : / -', () => {
    const externalId = `aZ09._:/-${'k'.repeat(91)}`;
    expect(parseTransferBody({ amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', externalId }).externalId).toBe(externalId);
  });
});

describe('parseTransferBody: description', () => {
  it('null is no description, compared like an absent one', () => {
    const base = { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf' };
    const withNull = parseTransferBody({ ...base, description: null });
    expect(withNull.description).toBeNull();
    expect(transferComparedFields(withNull)).toEqual(transferComparedFields(parseTransferBody(base)));
  });
});

describe('parseTransferBody: destinations', () => {
  it.each([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cnpj', '12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['email', 'Fulano@Example.com', 'fulano@example.com'],
    ['phone', '+55 11 98765-4321', '+5511987654321'],
    ['random', '71C7D9BE-4B85-4E43-9F1C-1F3B8B4E9A2D', '71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d'],
  ] as const)('legacy and modern %s keys resolve alike and compare equal', (keyType, value, key) => {
    const legacy = parseTransferBody({ amount: 10, pixKey: value, pixKeyType: keyType });
    const modern = parseTransferBody({ amount: 10, destination: { type: 'pix_key', value } });
    const typedModern = parseTransferBody({ amount: 10, destination: { type: 'pix_key', value }, pixKeyType: keyType });
    expect(legacy.destination).toEqual({ type: 'pix_key', keyType, key });
    expect(modern.destination).toEqual(legacy.destination);
    expect(transferComparedFields(modern)).toEqual(transferComparedFields(legacy));
    expect(transferComparedFields(typedModern)).toEqual(transferComparedFields(legacy));
  });

  it('a BR Code as copy-and-paste, as QR text and as a PNG image is the same destination', async () => {
    const image = await qrPngBase64(CODE_WITH_AMOUNT);
    const bodies = [
      { destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } },
      { destination: { type: 'qr_code', value: CODE_WITH_AMOUNT } },
      { destination: { type: 'qr_code', value: image } },
      { destination: { type: 'qr_code', value: `data:image/png;base64,${image}` } },
    ];
    const parsed = await Promise.all(bodies.map(async (body) => parseTransferBody(await readQrImageDestination(body, 'acc_test'))));
    for (const request of parsed) {
      expect(request.destination).toMatchObject({
        type: 'br_code',
        code: CODE_WITH_AMOUNT,
        amountCents: 2550,
        pixKey: 'fulano@example.com',
      });
      expect(transferComparedFields(request)).toEqual(transferComparedFields(parsed[0]!));
    }
  });

  it('the code amount prevails over the body amount', () => {
    const request = parseTransferBody({ amount: 99, destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } });
    expect(request.amountCents).toBe(9900);
    expect(requestedAmountCents(request)).toBe(2550);
  });

  it('compared fields change with amount, destination, description and coverFee', () => {
    const base = { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf' };
    const fields = (body: object) => transferComparedFields(parseTransferBody(body));
    const reference = fields(base);
    expect(fields({ ...base, externalId: 'k1' })).toEqual(reference);
    expect(fields({ ...base, amount: 11 })).not.toEqual(reference);
    expect(fields({ ...base, pixKey: '11144477735' })).not.toEqual(reference);
    expect(fields({ ...base, description: 'aluguel' })).not.toEqual(reference);
    expect(fields({ ...base, coverFee: true })).not.toEqual(reference);
  });
});

describe('priceTransfer', () => {
  const withFee = account({ fees: { charge: { fixedCents: 0, percent: 0 }, transfer: { fixedCents: 100, percent: 1 } } });

  it('prices a key transfer with coverFee false and true', () => {
    const body = { amount: 100, pixKey: '52998224725', pixKeyType: 'cpf' };
    expect(priceTransfer(parseTransferBody(body), withFee)).toEqual({
      ok: true,
      amountCents: 10000,
      feeCents: 200,
      debitedAmountCents: 10000,
      recipientAmountCents: 9800,
      netAmountCents: 9800,
    });
    expect(priceTransfer(parseTransferBody({ ...body, coverFee: true }), withFee)).toMatchObject({
      debitedAmountCents: 10200,
      recipientAmountCents: 10000,
    });
  });

  it.each([
    ['a key without amount', { pixKey: '52998224725', pixKeyType: 'cpf' }, account(), /obrigatório/],
    [
      'a code without amount and no body amount',
      { destination: { type: 'pix_copy_paste', value: CODE_WITHOUT_AMOUNT } },
      account(),
      /obrigatório/,
    ],
    ['below the minimum of 3 reais', { amount: 2.99, pixKey: '52998224725', pixKeyType: 'cpf' }, account(), /mínimo.*3,00/],
    [
      'below a per-account minimum',
      { amount: 9.99, pixKey: '52998224725', pixKeyType: 'cpf' },
      account({ limits: { chargeMinCents: 100, chargeMaxCents: 100, transferMinCents: 1000 } }),
      /10,00/,
    ],
    [
      'not above the fee',
      { amount: 3, pixKey: '52998224725', pixKeyType: 'cpf' },
      account({ fees: { charge: { fixedCents: 0, percent: 0 }, transfer: { fixedCents: 300, percent: 0 } } }),
      /tarifa/,
    ],
  ])('refuses %s', (_name, body, acc, message) => {
    const err = refusal(() => priceTransfer(parseTransferBody(body), acc));
    expect([err.status, err.code]).toEqual([400, 'invalid_request']);
    expect(err.message).toMatch(message);
  });

  it('takes the amount of a code without value from the body, coverFee applying as sent', () => {
    const open = { amount: 50, destination: { type: 'pix_copy_paste', value: CODE_WITHOUT_AMOUNT } };
    expect(priceTransfer(parseTransferBody(open), withFee)).toMatchObject({
      amountCents: 5000,
      feeCents: 150,
      debitedAmountCents: 5000,
      recipientAmountCents: 4850,
    });
    expect(priceTransfer(parseTransferBody({ ...open, coverFee: true }), withFee)).toMatchObject({
      debitedAmountCents: 5150,
      recipientAmountCents: 5000,
    });
  });

  // fee = 1.00 + 1 % of 25.50 (0.255, rounded to 0.26) = 1.26
  it.each([
    ['coverFee absent', {}],
    ['coverFee false', { coverFee: false }],
    ['coverFee true', { coverFee: true }],
    ['another amount in the body', { amount: 99 }],
  ])('a code with value pays it exactly, the fee on top (%s)', (_name, extra) => {
    const request = parseTransferBody({ destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT }, ...extra });
    expect(priceTransfer(request, withFee)).toEqual({
      ok: true,
      amountCents: 2550,
      feeCents: 126,
      debitedAmountCents: 2550 + 126,
      recipientAmountCents: 2550,
      netAmountCents: 2550,
    });
  });

  it('a code with value keeps coverFee as sent among the compared fields', () => {
    const fields = (extra: object) =>
      transferComparedFields(parseTransferBody({ destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT }, ...extra }));
    expect(fields({ coverFee: false })).toEqual(fields({}));
    expect(fields({ coverFee: true })).not.toEqual(fields({}));
  });
});
