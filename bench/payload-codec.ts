// CPU cost of the payload codec per charge: every payload of a recorded paid charge's history (its
// workflow input, activity inputs and results, updates: test/replay/histories/charge-paid.json, recorded
// in clear) encrypted once and decrypted once, as the writer and one reader of each would.
//
//   node --import tsx bench/payload-codec.ts [ROUNDS]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AesGcmPayloadCodec } from '../src/temporal/codec/aes-gcm-codec.js';
import { historyPayloads, isCoreMarkerData } from '../test/helpers/history-payloads.js';
import { testPayloadKeys } from '../test/helpers/payload-keys.js';

const ROUNDS = Number(process.argv[2] ?? 5000);
const HISTORY = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'replay', 'histories', 'charge-paid.json');

const payloads = historyPayloads(JSON.parse(readFileSync(HISTORY, 'utf8')))
  .filter((p) => !isCoreMarkerData(p))
  .map((p) => ({ metadata: p.metadata, data: p.data }));
const codec = new AesGcmPayloadCodec(testPayloadKeys());
const clearBytes = payloads.reduce((sum, p) => sum + p.data.length, 0);

async function cpuMicros(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await work(); // warm-up
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ROUNDS;
}

const encoded = await codec.encode(payloads);
const encodedBytes = encoded.reduce((sum, p) => sum + (p.data?.length ?? 0), 0);
const encodeUs = await cpuMicros(() => codec.encode(payloads));
const decodeUs = await cpuMicros(() => codec.decode(encoded));
process.stdout.write(
  `payload codec, one paid charge: ${payloads.length} payloads, ${clearBytes} bytes in clear, ${encodedBytes} encrypted\n` +
    `CPU per charge: encrypt ${encodeUs.toFixed(1)} µs + decrypt ${decodeUs.toFixed(1)} µs = ${(encodeUs + decodeUs).toFixed(1)} µs (${ROUNDS} rounds)\n`,
);
