import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateCnpj, generateCpf } from '@brazilian-utils/brazilian-utils';
import { documentKind, isValidCnpj, isValidCpf, normalizeDocument } from '../../src/domain/documents.js';

describe('documents', () => {
  it.each([
    ['529.982.247-25', 'cpf'],
    ['52998224725', 'cpf'],
    ['11.222.333/0001-81', 'cnpj'],
    ['11222333000181', 'cnpj'],
    ['12.ABC.345/01DE-35', 'cnpj'],
    ['12abc34501de35', 'cnpj'],
    ['529.982.247-24', null],
    ['00000000000', null],
    ['11.222.333/0001-80', null],
    ['', null],
    ['abc', null],
  ])('%s is %s', (value, kind) => {
    expect(documentKind(value)).toBe(kind);
    expect(isValidCpf(value)).toBe(kind === 'cpf');
    expect(isValidCnpj(value)).toBe(kind === 'cnpj');
  });

  it('normalizes to the bare upper-case form', () => {
    expect(normalizeDocument('529.982.247-25')).toBe('52998224725');
    expect(normalizeDocument(' 12.abc.345/01de-35 ')).toBe('12ABC34501DE35');
  });

  it('property: generated documents are recognized, masked or not', () => {
    fc.assert(
      fc.property(fc.integer(), () => {
        const cpf = generateCpf();
        const cnpj = generateCnpj({ version: 2 });
        expect(documentKind(cpf)).toBe('cpf');
        expect(documentKind(cnpj)).toBe('cnpj');
        expect(documentKind(normalizeDocument(cnpj.toLowerCase()))).toBe('cnpj');
      }),
      { numRuns: 200 },
    );
  });

  it('property: changing a check digit of a valid CPF makes it invalid', () => {
    fc.assert(
      fc.property(fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const cpf = generateCpf();
        const digit = (Number(cpf[position]) + delta) % 10;
        const changed = cpf.slice(0, position) + digit + cpf.slice(position + 1);
        expect(isValidCpf(changed)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
