// The spec's idempotency rules for creations (POST /transactions and POST /transfers):
// the key comes from the `Idempotency-Key` header or the body's `externalId` (equal when both are
// sent), is scoped to the account, and binds one operation forever. A repeat with the same compared
// fields returns the original; with different ones it is a 409. Each operation names the fields it
// compares and passes them, already normalised, to `fingerprintOf`.
import { createHash } from 'node:crypto';
import Type from 'typebox';
import { Refusal } from '../domain/refusal.js';
import { ENGINE_ID_PATTERN } from './ids.js';

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:/-]{1,100}$/;

/** The `Idempotency-Key` request header, for the route table and the OpenAPI document. */
export const IdempotencyKeyHeaderSchema = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      maxLength: 100,
      pattern: IDEMPOTENCY_KEY_PATTERN.source,
      description:
        'Obrigatória se externalId não for enviado no corpo. Não pode ter o formato de um id do serviço (txn_, out_, med_… seguido de 24 dígitos hexadecimais)',
    }),
  ),
});

/** The account-scoped key of a creation request, or the spec's refusal (400/409) when it is missing, malformed or ambiguous. */
export function resolveIdempotencyKey(header: string | undefined, externalId: string | undefined): string {
  const fromHeader = header === undefined || header === '' ? undefined : header;
  if (fromHeader === undefined && externalId === undefined) {
    throw new Refusal('idempotency_key_required', 'Envie o cabeçalho Idempotency-Key ou o campo externalId');
  }
  for (const candidate of [fromHeader, externalId]) {
    if (candidate !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(candidate)) {
      throw new Refusal(
        'invalid_idempotency_key',
        'Chave de idempotência inválida: até 100 caracteres, apenas letras, dígitos e . _ : / -',
      );
    }
    // GET /transactions/{id} and /meds/{id} take an id or a key: a key shaped like an engine id could
    // name another transaction there, and a repeat of its creation would resolve to that other one.
    if (candidate !== undefined && ENGINE_ID_PATTERN.test(candidate)) {
      throw new Refusal(
        'invalid_idempotency_key',
        'Chave de idempotência inválida: não use o formato dos identificadores do serviço (txn_, out_, med_… seguido de 24 dígitos hexadecimais)',
      );
    }
  }
  if (fromHeader !== undefined && externalId !== undefined && fromHeader !== externalId) {
    throw new Refusal('idempotency_conflict', 'O cabeçalho Idempotency-Key difere do campo externalId');
  }
  return (fromHeader ?? externalId)!;
}

/** JSON with object keys sorted at every level, so equal values always give the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Hex SHA-256 of the compared fields of an operation (`kind` keeps a charge and a transfer apart). */
/**
 * A text `externalId` in a body is checked by the key's own rules before the body's schema, so a bad key
 * answers `invalid_idempotency_key` whatever else is wrong with the body.
 */
export function checkBodyExternalId(body: unknown): void {
  const externalId = typeof body === 'object' && body !== null ? (body as { externalId?: unknown }).externalId : undefined;
  if (typeof externalId === 'string') resolveIdempotencyKey(undefined, externalId);
}

export function fingerprintOf(kind: string, comparedFields: Record<string, unknown>): string {
  return createHash('sha256')
    .update(`${kind}\n${canonicalJson(comparedFields)}`)
    .digest('hex');
}

export type IdempotencyOutcome = 'new' | 'repeat';

/** Decides what an existing operation bound to the key means for this request: a repeat, or a 409. */
export function compareWithExisting(existingFingerprint: string | null, fingerprint: string): IdempotencyOutcome {
  if (existingFingerprint === null) return 'new';
  if (existingFingerprint !== fingerprint) throw idempotencyConflict();
  return 'repeat';
}

export const idempotencyConflict = () =>
  new Refusal('idempotency_conflict', 'Esta chave de idempotência já foi usada com outro conteúdo; use uma nova chave');
