// The payload codec (AES-256-GCM, key id in the metadata) and its key sets: round trip, fresh nonces,
// clear payloads of older histories passing through (marked as such by the data converter), rotation,
// and loud failures naming the key id.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { AesGcmPayloadCodec, PayloadDecryptionError } from '../../src/temporal/codec/aes-gcm-codec.js';
import { encryptingDataConverter } from '../../src/temporal/codec/data-converter.js';
import { resolvePayloadKeys } from '../../src/temporal/codec/key-file.js';
import { parsePayloadKeys, type PayloadKeys } from '../../src/config/payload-keys.js';
import { UNENCRYPTED_METADATA } from '../../contracts/payload-encryption.contract.js';

const key = () => randomBytes(32).toString('base64');
const keySet = (current: string, keys: Record<string, string>): PayloadKeys => parsePayloadKeys(JSON.stringify({ current, keys }), 'test');
const payer = { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' };
const clear = (): Payload => defaultPayloadConverter.toPayload({ draft: { payer } });
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');

describe('AES-GCM payload codec', () => {
  const k1 = key();

  it('encrypts the whole payload under the current key id and decrypts it back', async () => {
    const codec = new AesGcmPayloadCodec(keySet('k1', { k1 }));
    const [encrypted] = await codec.encode([clear()]);
    expect(text(encrypted!.metadata!.encoding)).toBe('binary/encrypted');
    expect(text(encrypted!.metadata!['encryption-key-id'])).toBe('k1');
    expect(Object.keys(encrypted!.metadata!)).toEqual(['encoding', 'encryption-key-id']);
    expect(text(encrypted!.data)).not.toContain('Maria');
    expect(text(encrypted!.data)).not.toContain('json/plain');
    const [decrypted] = await codec.decode([encrypted!]);
    expect(defaultPayloadConverter.fromPayload(decrypted!)).toEqual({ draft: { payer } });
  });

  it('uses a fresh nonce for every payload', async () => {
    const codec = new AesGcmPayloadCodec(keySet('k1', { k1 }));
    const [a, b] = await codec.encode([clear(), clear()]);
    expect(Buffer.from(a!.data!).subarray(0, 12).equals(Buffer.from(b!.data!).subarray(0, 12))).toBe(false);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('never hands out a nonce twice, across the batches it draws them in', async () => {
    const codec = new AesGcmPayloadCodec(keySet('k1', { k1 }));
    const encoded = [
      ...(await codec.encode(Array.from({ length: 300 }, clear))),
      ...(await codec.encode(Array.from({ length: 300 }, clear))),
    ];
    const nonces = new Set(encoded.map((p) => Buffer.from(p.data!).subarray(0, 12).toString('hex')));
    expect(nonces.size).toBe(600);
    expect(await codec.decode(encoded)).toHaveLength(600);
  });

  it('passes through a payload written before encryption (no encryption metadata)', async () => {
    const codec = new AesGcmPayloadCodec(keySet('k1', { k1 }));
    const payload = clear();
    expect(await codec.decode([payload])).toEqual([payload]);
  });

  it('the data converter marks a payload that arrives in clear, whatever its sender wrote, and no decrypted one', async () => {
    const codecs = encryptingDataConverter(keySet('k1', { k1 })).payloadCodecs!;
    const decode = async (payloads: Payload[]) => {
      for (const codec of [...codecs].reverse()) payloads = await codec.decode(payloads);
      return payloads;
    };
    const encrypted = await codecs.reduce(async (payloads, codec) => codec.encode(await payloads), Promise.resolve([clear()]));
    const [decrypted] = await decode(encrypted);
    expect(decrypted!.metadata![UNENCRYPTED_METADATA]).toBeUndefined();
    expect(defaultPayloadConverter.fromPayload(decrypted!)).toEqual({ draft: { payer } });

    const forged = { ...clear(), metadata: { ...clear().metadata, [UNENCRYPTED_METADATA]: new TextEncoder().encode('false') } };
    for (const sent of [clear(), forged]) {
      const [received] = await decode([sent]);
      expect(text(received!.metadata![UNENCRYPTED_METADATA])).toBe('true');
      expect(defaultPayloadConverter.fromPayload(received!)).toEqual({ draft: { payer } });
    }
  });

  it('rotation: payloads written under key 1 decode once key 2 is added and made current; new ones use key 2', async () => {
    const [old] = await new AesGcmPayloadCodec(keySet('k1', { k1 })).encode([clear()]);
    const rotated = new AesGcmPayloadCodec(keySet('k2', { k1, k2: key() }));
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!)).toEqual({ draft: { payer } });
    const [fresh] = await rotated.encode([clear()]);
    expect(text(fresh!.metadata!['encryption-key-id'])).toBe('k2');
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([fresh!]))[0]!)).toEqual({ draft: { payer } });
  });

  it('fails loudly, naming the key id, when the key is not held', async () => {
    const [old] = await new AesGcmPayloadCodec(keySet('k1', { k1 })).encode([clear()]);
    const without = new AesGcmPayloadCodec(keySet('k2', { k2: key() }));
    const failure = await without.decode([old!]).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PayloadDecryptionError);
    expect((failure as Error).message).toMatch(/key "k1", which this process does not hold/);
  });

  it('refuses an altered payload, a relabelled key id and another key under the same id', async () => {
    const codec = new AesGcmPayloadCodec(keySet('k1', { k1, k0: key() }));
    const [encrypted] = await codec.encode([clear()]);
    const altered = Buffer.from(encrypted!.data!);
    altered[20]! ^= 1;
    await expect(codec.decode([{ ...encrypted!, data: altered }])).rejects.toThrow(/does not authenticate/);
    const relabelled = { ...encrypted!, metadata: { ...encrypted!.metadata, 'encryption-key-id': new TextEncoder().encode('k0') } };
    await expect(codec.decode([relabelled])).rejects.toThrow(/key "k0" does not authenticate/);
    await expect(new AesGcmPayloadCodec(keySet('k1', { k1: key() })).decode([encrypted!])).rejects.toThrow(
      /key "k1" does not authenticate/,
    );
  });
});

describe('payload key sets', () => {
  const good = JSON.stringify({ current: 'k1', keys: { k1: key() } });

  it('are read from PAYLOAD_KEYS or PAYLOAD_KEYS_FILE, not both', () => {
    expect(loadConfig({}).payloadKeys).toBeNull();
    expect(loadConfig({ PAYLOAD_KEYS: good }).payloadKeys?.current).toBe('k1');
    const file = join(mkdtempSync(join(tmpdir(), 'pix-keys-')), 'keys.json');
    writeFileSync(file, good);
    expect(loadConfig({ PAYLOAD_KEYS_FILE: file }).payloadKeys?.keys.size).toBe(1);
    expect(() => loadConfig({ PAYLOAD_KEYS: good, PAYLOAD_KEYS_FILE: file })).toThrow(/PAYLOAD_KEYS and PAYLOAD_KEYS_FILE are both set/);
    expect(() => loadConfig({ PAYLOAD_KEYS_FILE: `${file}.missing` })).toThrow(/PAYLOAD_KEYS_FILE .*ENOENT/);
  });

  it('are refused with an error naming the variable and the field', () => {
    const refused = (value: unknown) => () => loadConfig({ PAYLOAD_KEYS: typeof value === 'string' ? value : JSON.stringify(value) });
    expect(refused('{not json')).toThrow(ConfigError);
    expect(refused('{not json')).toThrow(/^PAYLOAD_KEYS is not valid JSON/);
    expect(refused([])).toThrow(/^PAYLOAD_KEYS must be a JSON object/);
    expect(refused({ current: 'k1', keys: {} })).toThrow(/^PAYLOAD_KEYS: "keys" must be an object with at least one key/);
    expect(refused({ current: 'k1', keys: { k1: 'not base64!' } })).toThrow(/^PAYLOAD_KEYS: keys.k1 must be a base64 string/);
    expect(refused({ current: 'k1', keys: { k1: randomBytes(16).toString('base64') } })).toThrow(
      /^PAYLOAD_KEYS: keys.k1 must be 32 bytes \(AES-256\), got 16/,
    );
    expect(refused({ current: 'k1', keys: { 'k 1': key() } })).toThrow(/^PAYLOAD_KEYS: key id "k 1" must be/);
    expect(refused({ current: 'k9', keys: { k1: key() } })).toThrow(/^PAYLOAD_KEYS: "current" must name one of the keys \(k1\)/);
  });

  it('report the first fault in reading order: the keys one by one, each id before its key, then "current"', () => {
    const refusal = (value: unknown) => {
      try {
        loadConfig({ PAYLOAD_KEYS: JSON.stringify(value) });
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('the key set was accepted');
    };
    expect(refusal({ current: 'k1' })).toBe('PAYLOAD_KEYS: "keys" must be an object with at least one key id and its key in base64');
    expect(refusal({ keys: { 'k 1': 'not base64!' } })).toBe(`PAYLOAD_KEYS: key id "k 1" must be 1 to 64 letters, digits, '.', '_' or '-'`);
    expect(refusal({ keys: { k1: key(), k2: 'AAA', 'k 3': key() } })).toBe('PAYLOAD_KEYS: keys.k2 must be a base64 string');
    expect(refusal({ keys: { k1: key(), k2: key() } })).toBe('PAYLOAD_KEYS: "current" must name one of the keys (k1, k2)');
    expect(refusal({ current: 1, keys: { k1: key() } })).toBe('PAYLOAD_KEYS: "current" must name one of the keys (k1)');
    expect(refusal({ current: 'k1', keys: { k1: 'AAAA' } })).toBe('PAYLOAD_KEYS: keys.k1 must be 32 bytes (AES-256), got 3');
  });

  it('npm start makes its key file in the data folder (mode 0600) once; the api and worker roles refuse to start without keys', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'pix-data-')), 'nested');
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = resolvePayloadKeys(config, 'all');
    expect(first).toMatchObject({ file: join(dataDir, 'payload-keys.json'), created: true });
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    const second = resolvePayloadKeys(config, 'all');
    expect(second.created).toBe(false);
    expect(second.keys).toEqual(first.keys);
    expect(JSON.parse(readFileSync(first.file!, 'utf8')).current).toBe(first.keys.current);
    for (const role of ['api', 'worker']) {
      expect(() => resolvePayloadKeys(config, role)).toThrow(
        new RegExp(`PAYLOAD_KEYS or PAYLOAD_KEYS_FILE is required for the ${role} role`),
      );
    }
  });
});
