// Where a transfer goes, resolved from either body shape into one canonical form, so that the legacy
// `pixKey` + `pixKeyType` and the modern `destination: {type: 'pix_key', value}` of the same key
// compare equal, and a BR Code sent as copy-and-paste text or as a QR code (text or PNG image) is the
// same destination: the BR Code payload itself. A QR image is read first (readQrImageDestination, off
// the event loop), so that resolving stays synchronous and cheap.
import { parseBrCode } from '../domain/brcode.js';
import { validatePixKey, type PixKeyType } from '../domain/pix-keys.js';
import { readQrImage } from '../domain/qr-reader.js';
import { UNREADABLE_QR } from '../domain/qrcode.js';
import { invalidRequest, unavailable } from '../domain/refusal.js';
import { checkText } from '../http/text-rule.js';
import type { TransferDestination } from './contract.js';

export type BrCodeDestination = Extract<TransferDestination, { type: 'br_code' }>;

export type DestinationResult = { ok: true; destination: TransferDestination } | { ok: false; reason: string };

interface DestinationFields {
  destination?: { type: 'pix_key' | 'pix_copy_paste' | 'qr_code'; value: string };
  pixKey?: string;
  pixKeyType?: PixKeyType;
}

const refuse = (reason: string): DestinationResult => ({ ok: false, reason });

function pixKeyDestination(value: string, keyType: PixKeyType | undefined): DestinationResult {
  const result = validatePixKey(value, keyType);
  if (!result.ok) return refuse(result.reason);
  return { ok: true, destination: { type: 'pix_key', keyType: result.type, key: result.key } };
}

function brCodeDestination(code: string, field: string): DestinationResult {
  const parsed = parseBrCode(code);
  if (!parsed.ok) return refuse(`${field}: ${parsed.reason}`);
  return {
    ok: true,
    destination: {
      type: 'br_code',
      code: code.trim(),
      pixKey: parsed.pixKey ?? null,
      url: parsed.url ?? null,
      amountCents: parsed.amountCents,
      txid: parsed.txid,
      merchantName: parsed.merchantName,
      merchantCity: parsed.merchantCity,
      static: parsed.static,
    },
  };
}

/** A `qr_code` value, once any image in it was read (readQrImageDestination): the payload itself. */
function qrCodeDestination(value: string): DestinationResult {
  if (parseBrCode(value).ok) return brCodeDestination(value, 'destination.value');
  return refuse(`destination.value: ${UNREADABLE_QR}`);
}

const isQrImageDestination = (body: unknown): body is { destination: { type: 'qr_code'; value: string } } => {
  const destination = (body as { destination?: { type?: unknown; value?: unknown } } | null)?.destination;
  return destination?.type === 'qr_code' && typeof destination.value === 'string' && !parseBrCode(destination.value).ok;
};

/**
 * A body whose `qr_code` destination is a base64 PNG of the QR code (a `data:` prefix is tolerated)
 * comes back with the BR Code the image carries in its place; any other body as it is. The image is
 * read within a size budget and off the event loop, taking turns with other accounts (qr-reader.ts);
 * the text read obeys the rule of every text the service takes in (text-rule.ts). Refuses (invalid_request) when it
 * cannot be read, `unavailable` when it could not get its turn at a reader (nothing was judged: retry).
 */
export async function readQrImageDestination(body: unknown, accountId: string): Promise<unknown> {
  if (!isQrImageDestination(body)) return body;
  const image = body.destination.value.trim().replace(/^data:image\/png;base64,/i, '');
  const read = await readQrImage(image, accountId);
  if (!read.ok) {
    if (read.retryable) throw unavailable(read.reason, 1);
    throw invalidRequest(`destination.value: ${read.reason}`);
  }
  checkText(read.text, 'Campo /destination/value (BR Code lido do QR code)');
  return { ...body, destination: { ...body.destination, value: read.text } };
}

export function resolveDestination(fields: DestinationFields): DestinationResult {
  const { destination, pixKey, pixKeyType } = fields;
  if (destination !== undefined) {
    if (pixKey !== undefined) return refuse('Envie destination ou pixKey/pixKeyType, não ambos');
    if (destination.type === 'pix_key') return pixKeyDestination(destination.value, pixKeyType);
    if (pixKeyType !== undefined) return refuse('pixKeyType só se aplica a destinos do tipo chave Pix');
    if (destination.type === 'pix_copy_paste') return brCodeDestination(destination.value, 'destination.value');
    return qrCodeDestination(destination.value);
  }
  if (pixKey === undefined) return refuse('Informe o destino: destination ou pixKey e pixKeyType');
  if (pixKeyType === undefined) return refuse('Informe pixKeyType junto com pixKey (cpf, cnpj, email, phone ou random)');
  return pixKeyDestination(pixKey, pixKeyType);
}

/** The destination as the idempotency rules compare it: type and normalised value, key type for keys. */
export function comparedDestination(destination: TransferDestination): Record<string, unknown> {
  return destination.type === 'pix_key'
    ? { type: 'pix_key', value: destination.key, keyType: destination.keyType }
    : { type: 'br_code', value: destination.code };
}
