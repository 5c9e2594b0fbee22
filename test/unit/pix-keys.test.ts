import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateCnpj, generateCpf } from '@brazilian-utils/brazilian-utils';
import { validatePixKey, type PixKeyType } from '../../src/domain/pix-keys.js';

const valid: Array<[string, PixKeyType, string]> = [
  ['529.982.247-25', 'cpf', '52998224725'],
  ['52998224725', 'cpf', '52998224725'],
  ['11.222.333/0001-81', 'cnpj', '11222333000181'],
  ['12.abc.345/01de-35', 'cnpj', '12ABC34501DE35'],
  ['Fulano@Example.com', 'email', 'fulano@example.com'],
  ['+5511987654321', 'phone', '+5511987654321'],
  ['+55 (11) 98765-4321', 'phone', '+5511987654321'],
  ['71C7D9BE-4B85-4E43-9F1C-1F3B8B4E9A2D', 'random', '71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d'],
];

describe('validatePixKey', () => {
  it.each(valid)('%s is a %s key, normalized to %s (with and without the type)', (value, type, key) => {
    expect(validatePixKey(value, type)).toEqual({ ok: true, type, key });
    expect(validatePixKey(value)).toEqual({ ok: true, type, key });
  });

  it.each(valid)('%s is refused under every other type', (value, type) => {
    for (const other of ['cpf', 'cnpj', 'email', 'phone', 'random'] as const) {
      if (other !== type) expect(validatePixKey(value, other).ok).toBe(false);
    }
  });

  it.each([
    ['11987654321', undefined, /\+55/], // a phone must be E.164; never guessed from bare digits
    ['11987654321', 'phone', /\+55/],
    ['(11) 98765-4321', 'phone', /\+55/],
    ['+551133334444', 'phone', /telefone/], // landline: not a Pix key
    ['529.982.247-24', 'cpf', /CPF/],
    ['11.222.333/0001-80', 'cnpj', /CNPJ/],
    [`${'a'.repeat(70)}@example.com`, 'email', /e-mail/], // 82 characters > 77
    ['not-an-email@', 'email', /e-mail/],
    ['71c7d9be-4b85-4e43-9f1c', 'random', /aleatória/],
    ['', undefined, /Informe/],
    ['   ', 'cpf', /Informe/],
    ['chave qualquer', undefined, /inválida/],
  ] as Array<[string, PixKeyType | undefined, RegExp]>)('refuses %s as %s', (value, type, reason) => {
    const result = validatePixKey(value, type);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('refuses values that are not strings', () => {
    expect(validatePixKey(52998224725).ok).toBe(false);
    expect(validatePixKey(null, 'cpf').ok).toBe(false);
  });

  it('property: generated keys are recognized and normalization is idempotent', () => {
    const keyArb = fc.oneof(
      fc.constant(null).map(() => generateCpf()),
      fc.constant(null).map(() => generateCnpj({ version: 2 })),
      fc.uuid().map((uuid) => uuid.toUpperCase()),
      fc
        .tuple(fc.stringMatching(/^[a-z0-9]{1,30}$/), fc.stringMatching(/^[a-z]{1,20}$/))
        .map(([local, domain]) => `${local}@${domain}.com.br`.toUpperCase()),
      fc.integer({ min: 0, max: 99_999_999 }).map((n) => `+5511 9${String(n).padStart(8, '0')}`),
    );
    fc.assert(
      fc.property(keyArb, (value) => {
        const first = validatePixKey(value);
        expect(first.ok).toBe(true);
        if (!first.ok) return;
        expect(validatePixKey(first.key, first.type)).toEqual(first);
        expect(first.key).toBe(first.key.trim());
      }),
    );
  });

  it('property: every generated CPF, CNPJ and UUID is accepted under its type', () => {
    fc.assert(
      fc.property(fc.uuid(), (uuid) => {
        expect(validatePixKey(generateCpf(), 'cpf').ok).toBe(true);
        expect(validatePixKey(generateCnpj({ version: 2 }), 'cnpj').ok).toBe(true);
        expect(validatePixKey(uuid, 'random')).toEqual({ ok: true, type: 'random', key: uuid.toLowerCase() });
      }),
      { numRuns: 200 },
    );
  });
});
