// The data converter every Temporal client and worker of the engine uses: default JSON conversion, then
// the encrypting codec (aes-gcm-codec.ts) on the way to and from the server.
import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from './aes-gcm-codec.js';
import type { PayloadKeys } from './keys.js';

export function encryptingDataConverter(keys: PayloadKeys): DataConverter {
  return { payloadCodecs: [new AesGcmPayloadCodec(keys)] };
}
