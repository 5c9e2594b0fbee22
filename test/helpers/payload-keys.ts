// The committed TEST-ONLY payload key set (test/replay/test-payload-keys.json): the engine processes of the
// tests get it through PAYLOAD_KEYS_FILE, and the encrypted replay histories were recorded under it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPayloadKeysFile } from '../../src/config/config.js';
import type { PayloadKeys } from '../../src/config/payload-keys.js';

export const TEST_PAYLOAD_KEYS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'replay', 'test-payload-keys.json');

export function testPayloadKeys(): PayloadKeys {
  return readPayloadKeysFile(TEST_PAYLOAD_KEYS_FILE, TEST_PAYLOAD_KEYS_FILE);
}
