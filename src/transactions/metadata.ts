// `metadata`: the client's own key-value pairs on a charge or a transfer (an order number, a customer
// id), never read by the engine. At most 20 keys of 1 to 40 characters, each a text value of at most
// 500; stored with the transaction, returned on it and in its webhooks, and compared for idempotency.
import Type from 'typebox';
import { invalidRequest } from '../domain/refusal.js';
import { jsonPointer } from '../json/pointer.js';

export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_VALUE_MAX_LENGTH = 500;

export type Metadata = Record<string, string>;

const DESCRIPTION = `Pares chave-valor do cliente, devolvidos na transação e nos webhooks: até ${METADATA_MAX_KEYS} chaves de 1 a ${METADATA_KEY_MAX_LENGTH} caracteres, valores texto de até ${METADATA_VALUE_MAX_LENGTH} caracteres`;

/** As requests send it (validated first by `checkMetadata`, which names the key to blame). */
export const MetadataRequestSchema = Type.Record(Type.String(), Type.String({ maxLength: METADATA_VALUE_MAX_LENGTH }), {
  maxProperties: METADATA_MAX_KEYS,
  propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH },
  description: DESCRIPTION,
});

/** As the transaction shows it: `{}` when none was sent. */
export const MetadataSchema = Type.Record(Type.String(), Type.String(), { description: DESCRIPTION });

const param = (key: string) => jsonPointer('metadata', key);

/**
 * The body's `metadata` checked, or `{}` when absent; a 400 `invalid_request` whose `param` is
 * `/metadata` or `/metadata/<key>` on the first problem. Run before the body's schema, so the message
 * names the key and the limit broken.
 */
export function checkMetadata(body: unknown): Metadata {
  const value = typeof body === 'object' && body !== null ? (body as { metadata?: unknown }).metadata : undefined;
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest('metadata deve ser um objeto de chaves e valores texto', '/metadata');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_MAX_KEYS) {
    throw invalidRequest(`metadata aceita no máximo ${METADATA_MAX_KEYS} chaves (recebidas ${entries.length})`, '/metadata');
  }
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) {
      throw invalidRequest(`Cada chave de metadata deve ter de 1 a ${METADATA_KEY_MAX_LENGTH} caracteres`, param(key));
    }
    if (typeof item !== 'string') throw invalidRequest(`metadata.${key} deve ser um texto`, param(key));
    if (item.length > METADATA_VALUE_MAX_LENGTH) {
      throw invalidRequest(`metadata.${key} deve ter no máximo ${METADATA_VALUE_MAX_LENGTH} caracteres`, param(key));
    }
  }
  return Object.fromEntries(entries) as Metadata;
}

/** What the idempotency fingerprint adds: nothing without metadata, so a fingerprint stored without the field still matches. */
export const comparedMetadata = (metadata: Metadata): { metadata?: Metadata } => (Object.keys(metadata).length === 0 ? {} : { metadata });
