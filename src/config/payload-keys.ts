// The keys of the payload codec, as the operator writes them (PAYLOAD_KEYS or the file PAYLOAD_KEYS_FILE
// names): {"current": "k2", "keys": {"k1": "<32 bytes in base64>", "k2": "…"}}. New payloads are encrypted
// with `current`; every key listed keeps decrypting what it encrypted, so rotating is adding a key and
// making it current, and a key leaves the list only once no history still holding its payloads is kept.
import { randomBytes } from 'node:crypto';
import Type, { type Static } from 'typebox';
import { firstFailure, REFUSAL } from './settings-schema.js';

export interface PayloadKeys {
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

export class PayloadKeysError extends Error {}

export const KEY_BYTES = 32; // AES-256
/** Base64 of the standard alphabet, padded with `=` to a multiple of four characters. */
const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

const keyBytes = (key: string) => Buffer.from(key, 'base64').length;

const KeySet = Type.Object(
  {
    keys: Type.Record(
      Type.String(),
      Type.Refine(
        Type.String({ pattern: BASE64, [REFUSAL]: 'must be a base64 string' }),
        (key) => keyBytes(key) === KEY_BYTES,
        (key) => `must be ${KEY_BYTES} bytes (AES-256), got ${keyBytes(key)}`,
      ),
      {
        minProperties: 1,
        propertyNames: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', [REFUSAL]: "must be 1 to 64 letters, digits, '.', '_' or '-'" }),
        [REFUSAL]: 'must be an object with at least one key id and its key in base64',
      },
    ),
  },
  { [REFUSAL]: 'must be a JSON object {"current": "<key id>", "keys": {"<key id>": "<32 bytes in base64>"}}' },
);

/** Parses and checks the JSON of a key set; `source` names where it came from in every error. */
export function parsePayloadKeys(text: string, source: string): PayloadKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new PayloadKeysError(`${source} is not valid JSON (${(err as Error).message})`);
  }
  const failure = firstFailure(KeySet, parsed);
  if (failure) {
    const { steps, key } = failure;
    const field = key ? `key id "${steps.at(-1)}"` : steps.length === 1 ? `"${steps[0]}"` : steps.join('.');
    throw new PayloadKeysError(`${source}${field ? `: ${field}` : ''} ${failure.phrase}`);
  }
  const { keys, current } = parsed as Static<typeof KeySet> & { current?: unknown };
  const byId = new Map(Object.entries(keys).map(([id, key]) => [id, Buffer.from(key, 'base64')]));
  // Which ids there are is known once the keys are read: JSON Schema cannot say it.
  if (typeof current !== 'string' || !byId.has(current)) {
    throw new PayloadKeysError(`${source}: "current" must name one of the keys (${[...byId.keys()].join(', ')})`);
  }
  return { current, keys: byId };
}

/** The JSON of a new key set with one fresh random key, "k1", current. */
export function newPayloadKeysJson(): string {
  return `${JSON.stringify({ current: 'k1', keys: { k1: randomBytes(KEY_BYTES).toString('base64') } }, null, 2)}\n`;
}
