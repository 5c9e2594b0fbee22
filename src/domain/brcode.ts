// Pix BR Code (EMV QRCPS-MPM, GUI br.gov.bcb.pix, CRC16-CCITT) built and read with brazilian-utils.
import { generatePixPayload, getPixPayloadInfo } from '@brazilian-utils/brazilian-utils';
import { centsToReais, reaisToCents } from './money.js';

export interface BrCodeInput {
  /** Receiver's Pix key: the code is static (reusable) and carries the amount and txid. */
  pixKey?: string;
  /**
   * PSP location without scheme: the code is dynamic. Per the Pix manual the location is then the
   * source of truth for amount and txid, so `amountCents` and `txid` are not written.
   */
  url?: string;
  amountCents?: number;
  /** 1–25 characters of [A-Za-z0-9]; absent: `***`, a static code that names no txid. */
  txid?: string;
  merchantName: string;
  merchantCity: string;
}

export type ParsedBrCode =
  | {
      ok: true;
      pixKey?: string;
      url?: string;
      amountCents: number | null;
      /** Null when the code carries none (absent or the `***` marker). */
      txid: string | null;
      merchantName: string;
      merchantCity: string;
      /** False when the code is dynamic: it carries a location or the one-time initiation method 12. */
      static: boolean;
    }
  | { ok: false; reason: string };

/** The most a BR Code's amount field (ID 54, at most 13 characters: 9999999999.99) can carry. */
export const BR_CODE_MAX_AMOUNT_CENTS = 999_999_999_999;

/** Builds the copy-and-paste payload; throws on parameters no valid BR Code can carry. */
export function buildBrCode(input: BrCodeInput): string {
  const dynamic = input.url !== undefined;
  const payload = generatePixPayload({
    ...(dynamic ? { url: input.url } : { key: input.pixKey, ...(input.txid === undefined ? {} : { txid: input.txid }) }),
    ...(!dynamic && input.amountCents !== undefined ? { amount: centsToReais(input.amountCents) } : {}),
    merchantName: input.merchantName,
    merchantCity: input.merchantCity,
  });
  if (payload === null) throw new Error('buildBrCode: parameters do not form a valid BR Code');
  return payload;
}

/** Reads a BR Code, checking its TLV structure, mandatory objects, Pix template and CRC. */
export function parseBrCode(code: unknown): ParsedBrCode {
  if (typeof code !== 'string') return { ok: false, reason: 'BR Code inválido' };
  const info = getPixPayloadInfo(code);
  if (!info) return { ok: false, reason: 'BR Code inválido (estrutura ou CRC)' };
  const amountCents = info.amount === undefined ? null : reaisToCents(info.amount);
  return {
    ok: true,
    ...(info.key === undefined ? {} : { pixKey: info.key }),
    ...(info.url === undefined ? {} : { url: info.url }),
    amountCents,
    txid: info.txid ?? null,
    merchantName: info.merchantName,
    merchantCity: info.merchantCity,
    static: info.pointOfInitiation === 'static',
  };
}
