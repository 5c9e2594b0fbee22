// Pix keys per the DICT formats, normalized to the form the DICT registers.
//
// Decisions: a phone key must be written in E.164, "+55" then DDD and mobile number (masks such as
// spaces, dashes and parentheses after the "+" are tolerated and removed), so a bare 11-digit value
// is never a phone and never ambiguous with a CPF. A random key is a UUID, stored lower-case.
// An e-mail key is at most 77 characters, stored lower-case.
import { getPixKeyInfo } from '@brazilian-utils/brazilian-utils';

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'random'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export type PixKeyResult = { ok: true; type: PixKeyType; key: string } | { ok: false; reason: string };

const TYPE_NAMES: Record<PixKeyType, string> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'e-mail',
  phone: 'telefone',
  random: 'aleatória',
};

function recognize(value: string): { type: PixKeyType; key: string } | null {
  const info = getPixKeyInfo(value);
  if (!info) return null;
  if (info.type === 'phone' && !value.trim().startsWith('+55')) return null;
  return { type: info.type === 'evp' ? 'random' : info.type, key: info.value };
}

export function isPixKeyType(value: unknown): value is PixKeyType {
  return typeof value === 'string' && (PIX_KEY_TYPES as readonly string[]).includes(value);
}

/** Validates and normalizes a Pix key; with `type`, the key must be of that type. */
export function validatePixKey(value: unknown, type?: PixKeyType): PixKeyResult {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'Informe a chave Pix' };
  const recognized = recognize(value);
  if (type === undefined) {
    if (recognized) return { ok: true, ...recognized };
    const digits = value.replace(/\D/g, '');
    return /^[\d\s().-]+$/.test(value.trim()) && digits.length >= 10 && digits.length <= 11
      ? { ok: false, reason: 'Chave Pix inválida: telefone deve estar no formato +55DDNÚMERO' }
      : { ok: false, reason: 'Chave Pix inválida' };
  }
  if (recognized?.type === type) return { ok: true, ...recognized };
  const hint = type === 'phone' ? ' (formato +55DDNÚMERO)' : '';
  return { ok: false, reason: `Chave Pix do tipo ${TYPE_NAMES[type]} inválida${hint}` };
}
