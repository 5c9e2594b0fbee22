// The keys of the payload codec, as the operator writes them (PAYLOAD_KEYS or the file PAYLOAD_KEYS_FILE
// names): {"current": "k2", "keys": {"k1": "<32 bytes in base64>", "k2": "…"}}. New payloads are encrypted
// with `current`; every key listed keeps decrypting what it encrypted, so rotating is adding a key and
// making it current, and a key leaves the list only once no history still holding its payloads is kept.
import { randomBytes } from 'node:crypto';

export interface PayloadKeys {
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

export class PayloadKeysError extends Error {}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
export const KEY_BYTES = 32; // AES-256

/** Parses and checks the JSON of a key set; `source` names where it came from in every error. */
export function parsePayloadKeys(text: string, source: string): PayloadKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new PayloadKeysError(`${source} is not valid JSON (${(err as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PayloadKeysError(`${source} must be a JSON object {"current": "<key id>", "keys": {"<key id>": "<32 bytes in base64>"}}`);
  }
  const { current, keys } = parsed as Record<string, unknown>;
  if (keys === null || typeof keys !== 'object' || Array.isArray(keys) || Object.keys(keys).length === 0) {
    throw new PayloadKeysError(`${source}: "keys" must be an object with at least one key id and its key in base64`);
  }
  const byId = new Map<string, Buffer>();
  for (const [id, value] of Object.entries(keys)) {
    if (!KEY_ID.test(id)) throw new PayloadKeysError(`${source}: key id "${id}" must be 1 to 64 letters, digits, '.', '_' or '-'`);
    if (typeof value !== 'string' || !BASE64.test(value) || value.length % 4 !== 0) {
      throw new PayloadKeysError(`${source}: keys.${id} must be a base64 string`);
    }
    const key = Buffer.from(value, 'base64');
    if (key.length !== KEY_BYTES) throw new PayloadKeysError(`${source}: keys.${id} must be ${KEY_BYTES} bytes (AES-256), got ${key.length}`);
    byId.set(id, key);
  }
  if (typeof current !== 'string' || !byId.has(current)) {
    throw new PayloadKeysError(`${source}: "current" must name one of the keys (${[...byId.keys()].join(', ')})`);
  }
  return { current, keys: byId };
}

/** The JSON of a new key set with one fresh random key, "k1", current. */
export function newPayloadKeysJson(): string {
  return `${JSON.stringify({ current: 'k1', keys: { k1: randomBytes(KEY_BYTES).toString('base64') } }, null, 2)}\n`;
}
