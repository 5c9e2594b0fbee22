// The second codec of the engine's data converter (data-converter.ts): it leaves encoding alone and, on
// the way in, marks each payload that arrives without encryption (UNENCRYPTED_METADATA) before the
// AES-GCM codec passes it through. The workflows' interceptor reads the mark on a start's input and on a
// signal's or update's arguments (workflows/payload-encryption.interceptors.ts); a payload without it was
// decrypted under a known key, whose codec returns the payload it encrypted, never the sender's metadata.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { UNENCRYPTED_METADATA } from '../../../contracts/payload-encryption.contract.js';
import { isEncrypted } from './aes-gcm-codec.js';

const MARK = new TextEncoder().encode('true');

export class UnencryptedPayloadMarker implements PayloadCodec {
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads;
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) =>
      isEncrypted(payload) ? payload : { ...payload, metadata: { ...payload.metadata, [UNENCRYPTED_METADATA]: MARK } },
    );
  }
}
