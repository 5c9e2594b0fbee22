import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/accounts/account.js';
import { buildBrCode } from '../../src/domain/brcode.js';
import { qrPngBase64 } from '../../src/domain/qrcode.js';
import { ApiError } from '../../src/http/errors.js';
import { priceTransfer, requestedAmountCents, transferComparedFields } from '../../src/transfers/amounts.js';
import { parseTransferBody } from '../../src/transfers/schema.js';

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

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
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
    ['destination and pixKey together', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', destination: { type: 'pix_key', value: '52998224725' } }, /não ambos/],
    ['unknown destination type', { amount: 10, destination: { type: 'iban', value: 'x' } }, /destination.type/],
    ['destination without value', { amount: 10, destination: { type: 'pix_key' } }, /destination.value/],
    ['empty destination value', { amount: 10, destination: { type: 'pix_key', value: '' } }, /destination.value/],
    ['ambiguous bare digits as pix_key', { amount: 10, destination: { type: 'pix_key', value: '11987654321' } }, /\+55/],
    ['invalid pix_key', { amount: 10, destination: { type: 'pix_key', value: 'qualquer coisa' } }, /inválida/],
    ['copy-and-paste with a broken CRC', { destination: { type: 'pix_copy_paste', value: `${CODE_WITH_AMOUNT.slice(0, -4)}0000` } }, /BR Code/],
    ['copy-and-paste that is not a BR Code', { destination: { type: 'pix_copy_paste', value: 'pague-me' } }, /BR Code/],
    ['qr_code that is neither code nor image', { destination: { type: 'qr_code', value: 'aGVsbG8=' } }, /QR code/],
    ['pixKeyType with a code destination', { pixKeyType: 'cpf', destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } }, /pixKeyType/],
    ['description over 140', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', description: 'x'.repeat(141) }, /description/],
    ['externalId over 100', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', externalId: 'x'.repeat(101) }, /externalId/],
    ['coverFee as text', { amount: 10, pixKey: '52998224725', pixKeyType: 'cpf', coverFee: 'yes' }, /coverFee/],
  ])('%s → 400 invalid_request', (_name, body, message) => {
    const err = refusal(() => parseTransferBody(body));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toMatch(message);
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
    const parsed = bodies.map((body) => parseTransferBody(body));
    for (const request of parsed) {
      expect(request.destination).toMatchObject({ type: 'br_code', code: CODE_WITH_AMOUNT, amountCents: 2550, pixKey: 'fulano@example.com' });
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
    ['a code without amount and no body amount', { destination: { type: 'pix_copy_paste', value: CODE_WITHOUT_AMOUNT } }, account(), /obrigatório/],
    ['below the minimum of 3 reais', { amount: 2.99, pixKey: '52998224725', pixKeyType: 'cpf' }, account(), /mínimo.*3,00/],
    ['below a per-account minimum', { amount: 9.99, pixKey: '52998224725', pixKeyType: 'cpf' }, account({ limits: { chargeMinCents: 100, chargeMaxCents: 100, transferMinCents: 1000 } }), /10,00/],
    ['not above the fee', { amount: 3, pixKey: '52998224725', pixKeyType: 'cpf' }, account({ fees: { charge: { fixedCents: 0, percent: 0 }, transfer: { fixedCents: 300, percent: 0 } } }), /tarifa/],
    ['a code amount the recipient would not receive in full', { destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } }, withFee, /coverFee/],
  ])('refuses %s', (_name, body, acc, message) => {
    const err = refusal(() => priceTransfer(parseTransferBody(body), acc));
    expect([err.status, err.code]).toEqual([400, 'invalid_request']);
    expect(err.message).toMatch(message);
  });

  it('takes the amount of a code without value from the body, and a code with value pays it exactly', () => {
    expect(priceTransfer(parseTransferBody({ amount: 5, destination: { type: 'pix_copy_paste', value: CODE_WITHOUT_AMOUNT } }), account())).toMatchObject({ amountCents: 500 });
    expect(priceTransfer(parseTransferBody({ coverFee: true, destination: { type: 'pix_copy_paste', value: CODE_WITH_AMOUNT } }), withFee)).toMatchObject({
      amountCents: 2550,
      recipientAmountCents: 2550,
      debitedAmountCents: 2550 + 100 + 26,
    });
  });
});
