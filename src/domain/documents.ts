// Brazilian taxpayer documents: CPF (people) and CNPJ (companies, numeric or the new alphanumeric form).
import { isValidCnpj as libIsValidCnpj, isValidCpf as libIsValidCpf } from '@brazilian-utils/brazilian-utils';

export type DocumentKind = 'cpf' | 'cnpj';

/** Valid CPF, bare or with the usual mask. */
export function isValidCpf(value: string): boolean {
  return typeof value === 'string' && libIsValidCpf(value);
}

/** Valid CNPJ, numeric or alphanumeric, bare or masked, any letter case. */
export function isValidCnpj(value: string): boolean {
  return typeof value === 'string' && libIsValidCnpj(value, { version: 2 });
}

/** The document without its mask (dots, dashes, slashes, spaces), upper-case: the stored form. */
export function normalizeDocument(value: string): string {
  return value.replace(/[.\-/\s]/g, '').toUpperCase();
}

export function documentKind(value: string): DocumentKind | null {
  if (isValidCpf(value)) return 'cpf';
  if (isValidCnpj(value)) return 'cnpj';
  return null;
}
