// Input of the admin API's account and key routes, checked field by field. Every refusal is a
// 400 invalid_request whose Portuguese message names the field (`fees.charge.percent`, …);
// unknown fields are refused too, so a typo never passes silently. Reais become centavos here.
import { normalizeAllowlistEntry } from '../accounts/ip-allowlist.js';
import type { AccountPatch, FeesPatch, LimitsPatch, NewAccount } from '../accounts/repository.js';
import { PERMISSIONS, type Permission } from '../api/routes.js';
import { normalizeDocument, documentKind } from '../domain/documents.js';
import { reaisToCents } from '../domain/money.js';
import { invalidRequest } from '../http/errors.js';
import { ROUTE_NAMES } from '../processors/registry.js';

type Fields = Record<string, unknown>;

const MAX_ALLOWED_IPS = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PERCENT = /^\d{1,2}(?:\.\d{1,4})?$/;

function object(value: unknown, path: string, allowed: readonly string[]): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest(path ? `${path} deve ser um objeto` : 'O corpo deve ser um objeto JSON');
  }
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) throw invalidRequest(`Campo desconhecido: ${path ? `${path}.` : ''}${field}`);
  }
  return value as Fields;
}

function text(value: unknown, path: string, maxLength: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`${path} é obrigatório e deve ser um texto`);
  const trimmed = value.trim();
  if (trimmed.length > maxLength) throw invalidRequest(`${path} deve ter no máximo ${maxLength} caracteres`);
  return trimmed;
}

function oneOf<T extends string>(value: unknown, path: string, values: readonly T[]): T {
  if (!values.includes(value as T)) throw invalidRequest(`${path} deve ser um de: ${values.join(', ')}`);
  return value as T;
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw invalidRequest(`${path} deve ser true ou false`);
  return value;
}

function cents(value: unknown, path: string, { positive }: { positive: boolean }): number {
  const result = reaisToCents(value);
  if (result === null || (positive && result === 0)) {
    throw invalidRequest(`${path} deve ser um valor em reais ${positive ? 'maior que zero' : 'não negativo'} com até 2 casas decimais`);
  }
  return result;
}

function percent(value: unknown, path: string): number {
  if (typeof value !== 'number' || !PERCENT.test(String(value))) {
    throw invalidRequest(`${path} deve ser um percentual de 0 a 99.9999 com até 4 casas decimais`);
  }
  return value;
}

function document(value: unknown): string {
  if (typeof value !== 'string' || documentKind(value) === null) throw invalidRequest('document deve ser um CPF ou CNPJ válido');
  return normalizeDocument(value);
}

function email(value: unknown): string {
  const address = text(value, 'email', 254);
  if (!EMAIL.test(address)) throw invalidRequest('email deve ser um endereço de e-mail válido');
  return address;
}

function feeRule(value: unknown, path: string) {
  const fields = object(value, path, ['fixed', 'percent']);
  return {
    fixedCents: fields.fixed === undefined ? undefined : cents(fields.fixed, `${path}.fixed`, { positive: false }),
    percent: fields.percent === undefined ? undefined : percent(fields.percent, `${path}.percent`),
  };
}

function fees(value: unknown): FeesPatch {
  const fields = object(value, 'fees', ['charge', 'transfer']);
  return {
    charge: fields.charge === undefined ? undefined : feeRule(fields.charge, 'fees.charge'),
    transfer: fields.transfer === undefined ? undefined : feeRule(fields.transfer, 'fees.transfer'),
  };
}

function limits(value: unknown): LimitsPatch {
  const fields = object(value, 'limits', ['chargeMin', 'chargeMax', 'transferMin']);
  const limit = (field: string) => (fields[field] === undefined ? undefined : cents(fields[field], `limits.${field}`, { positive: true }));
  return { chargeMinCents: limit('chargeMin'), chargeMaxCents: limit('chargeMax'), transferMinCents: limit('transferMin') };
}

function route(value: unknown): string {
  return oneOf(value, 'route', ROUTE_NAMES);
}

const SETTINGS = ['status', 'kycStatus', 'withdrawalsBlocked', 'pixReceivingEnabled', 'fees', 'limits', 'route'] as const;

/** The settings present in `fields`, each checked; absent ones stay undefined. */
function settings(fields: Fields): AccountPatch {
  const read = <T>(field: string, parse: (value: unknown) => T): T | undefined => (fields[field] === undefined ? undefined : parse(fields[field]));
  return {
    status: read('status', (v) => oneOf(v, 'status', ['active', 'blocked'] as const)),
    kycStatus: read('kycStatus', (v) => oneOf(v, 'kycStatus', ['approved', 'pending'] as const)),
    withdrawalsBlocked: read('withdrawalsBlocked', (v) => boolean(v, 'withdrawalsBlocked')),
    pixReceivingEnabled: read('pixReceivingEnabled', (v) => boolean(v, 'pixReceivingEnabled')),
    fees: read('fees', fees),
    limits: read('limits', limits),
    route: read('route', route),
  };
}

export function parseNewAccount(body: unknown): NewAccount {
  const fields = object(body, '', ['name', 'document', 'email', 'allowDuplicate', ...SETTINGS]);
  return {
    name: text(fields.name, 'name', 200),
    document: document(fields.document),
    email: email(fields.email),
    allowDuplicate: fields.allowDuplicate === undefined ? false : boolean(fields.allowDuplicate, 'allowDuplicate'),
    ...settings(fields),
  };
}

export function parseAccountPatch(body: unknown): AccountPatch {
  const fields = object(body ?? {}, '', SETTINGS);
  if (Object.keys(fields).length === 0) throw invalidRequest(`Informe ao menos um campo para alterar: ${SETTINGS.join(', ')}`);
  return settings(fields);
}

export function parseKeyGrant(body: unknown): { permissions: Permission[]; allowedIps: string[] } {
  const fields = object(body, '', ['permissions', 'allowedIps']);
  if (!Array.isArray(fields.permissions) || fields.permissions.length === 0) {
    throw invalidRequest(`permissions deve ser uma lista não vazia de: ${PERMISSIONS.join(', ')}`);
  }
  const permissions = fields.permissions.map((p, i) => oneOf(p, `permissions[${i}]`, PERMISSIONS));
  const allowedIps = fields.allowedIps ?? [];
  if (!Array.isArray(allowedIps) || allowedIps.length > MAX_ALLOWED_IPS) {
    throw invalidRequest(`allowedIps deve ser uma lista de até ${MAX_ALLOWED_IPS} IPs ou faixas CIDR`);
  }
  return {
    permissions: [...new Set(permissions)],
    allowedIps: [
      ...new Set(
        allowedIps.map((entry, i) => {
          const normalized = typeof entry === 'string' ? normalizeAllowlistEntry(entry) : null;
          if (normalized === null) throw invalidRequest(`allowedIps[${i}] deve ser um IP ou uma faixa CIDR (IPv4 ou IPv6)`);
          return normalized;
        }),
      ),
    ],
  };
}
