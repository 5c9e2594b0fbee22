// The data converter every Temporal client and worker of the engine uses: default JSON conversion, then
// the encrypting codec (aes-gcm-codec.ts) on the way to and from the server. On the way in, the marker
// (unencrypted-marker.ts) sees each payload first and marks those that arrive in clear, so that workflows
// refuse a start, signal or update nobody holding the keys could have made.
import type { DataConverter } from '@temporalio/common';
import { AesGcmPayloadCodec } from './aes-gcm-codec.js';
import type { PayloadKeys } from '../../config/payload-keys.js';
import { UnencryptedPayloadMarker } from './unencrypted-marker.js';

export function encryptingDataConverter(keys: PayloadKeys): DataConverter {
  // Decoding runs the codecs last to first: the marker sees the payload as stored.
  return { payloadCodecs: [new AesGcmPayloadCodec(keys), new UnencryptedPayloadMarker()] };
}
