// The engine's PayloadCodec: every payload leaves the process encrypted with AES-256-GCM, so a workflow
// history (payer, documents, e-mails, Pix keys, every Transaction) is ciphertext in Temporal's database,
// in its Web UI and in its CLI. The whole payload (its metadata and data, as protobuf) is encrypted under
// a fresh 12-byte nonce; the result carries the key id in clear metadata so that keys can rotate. A
// payload without that metadata (written before encryption, or by someone without the keys) passes
// through as it is; the worker's workflows decide what to do with it (unencrypted-marker.ts).
import { createCipheriv, createDecipheriv, createSecretKey, randomFillSync, type KeyObject } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import protos from '@temporalio/proto'; // CommonJS: no named exports under Node's ESM loader
import type { PayloadKeys } from '../../config/payload-keys.js';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Nonces drawn from the CSPRNG this many at a time: one system call per batch, not per payload. */
const NONCES_PER_DRAW = 256;

const { Payload: PayloadProto } = protos.temporal.api.common.v1;
const text = new TextEncoder();
const fromText = new TextDecoder();

/** A payload that cannot be decrypted here: its key is not among this process's keys, or it was altered. */
export class PayloadDecryptionError extends Error {
  constructor(
    message: string,
    readonly keyId: string | null,
    readonly reason: 'unknown_key' | 'invalid',
  ) {
    super(message);
  }
}

export function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && fromText.decode(encoding) === ENCRYPTED_ENCODING;
}

/** Fresh random nonces, each handed out once. */
class NonceSource {
  private readonly pool = Buffer.alloc(NONCE_BYTES * NONCES_PER_DRAW);
  private next = this.pool.length;

  take(): Buffer {
    if (this.next === this.pool.length) {
      randomFillSync(this.pool);
      this.next = 0;
    }
    const nonce = Buffer.from(this.pool.subarray(this.next, this.next + NONCE_BYTES));
    this.next += NONCE_BYTES;
    return nonce;
  }
}

export class AesGcmPayloadCodec implements PayloadCodec {
  private readonly keyObjects: ReadonlyMap<string, KeyObject>;
  private readonly nonces = new NonceSource();

  constructor(private readonly keys: PayloadKeys) {
    this.keyObjects = new Map([...keys.keys].map(([id, key]) => [id, createSecretKey(key)]));
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.keys.current;
    const key = this.keyObjects.get(keyId)!;
    const keyIdBytes = text.encode(keyId);
    return payloads.map((payload) => {
      const nonce = this.nonces.take();
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      // The key id is authenticated too: a payload relabelled with another key id does not decrypt.
      cipher.setAAD(keyIdBytes);
      const plain = PayloadProto.encode(payload).finish();
      const data = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { [METADATA_ENCODING_KEY]: text.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: keyIdBytes }, data };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => (isEncrypted(payload) ? this.decrypt(payload) : payload));
  }

  private decrypt(payload: Payload): Payload {
    const rawKeyId = payload.metadata?.[KEY_ID_METADATA];
    if (!rawKeyId) throw new PayloadDecryptionError(`encrypted payload without its "${KEY_ID_METADATA}" metadata`, null, 'invalid');
    const keyId = fromText.decode(rawKeyId);
    const key = this.keyObjects.get(keyId);
    if (!key) {
      throw new PayloadDecryptionError(
        `payload encrypted with key "${keyId}", which this process does not hold (its keys: ${[...this.keys.keys.keys()].join(', ')}; set PAYLOAD_KEYS or PAYLOAD_KEYS_FILE to the operator's key set)`,
        keyId,
        'unknown_key',
      );
    }
    const data = payload.data ?? new Uint8Array();
    if (data.length < NONCE_BYTES + TAG_BYTES)
      throw new PayloadDecryptionError(`encrypted payload under key "${keyId}" is too short`, keyId, 'invalid');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
    decipher.setAAD(rawKeyId);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(
        `encrypted payload under key "${keyId}" does not authenticate (altered, or another key with that id)`,
        keyId,
        'invalid',
      );
    }
    return PayloadProto.decode(plain);
  }
}
