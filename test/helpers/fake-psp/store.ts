// The fake PSP's state, kept in the standard's own shapes (CobGerada/CobCompleta, Pix, Devolucao)
// and Efí's envio shape, so answers are these objects as they stand.
import { randomBytes, randomUUID } from 'node:crypto';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import type { SeededWindow } from './lists.js';

export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza: 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo?: string;
}

/** A Pix received on a cob (the standard's `Pix`; on the key alone, without txid), with Efí's `pagador` extension when known. */
export interface PixRecebido {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  pagador?: { nome: string; cpf?: string; cnpj?: string };
  devolucoes?: Devolucao[];
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** The standard's CobGerada; `pix` (CobCompleta) once paid. */
export interface Cob {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc: { id: number; txid: string; location: string; tipoCob: 'cob'; criacao: string };
  location: string;
  status: CobStatus;
  devedor?: Record<string, unknown>;
  valor: { original: string; modalidadeAlteracao: number };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: unknown[];
  pixCopiaECola: string;
  pix?: PixRecebido[];
}

/** Efí's envio as `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` answers it. */
export interface Envio {
  endToEndId: string;
  idEnvio: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave?: string; pixCopiaECola?: string };
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const randomAlphanumeric = (length: number) =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

/** An id of the SPI's shape: prefix, the ISPB, yyyyMMddHHmm (UTC) and 11 letters or digits: 32 characters. */
export function spiId(prefix: 'E' | 'D', ispb: string): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  return `${prefix}${ispb}${stamp}${randomAlphanumeric(11)}`;
}

/** ISPBs of the payer's PSP (for received Pix) and of the fake PSP itself (for envios and devoluções). */
export const PAYER_ISPB = '12345678';
export const FAKE_PSP_ISPB = '09089356';

export const centsToValor = (cents: number): string => (cents / 100).toFixed(2);
export const valorToCents = (valor: string): number => Math.round(Number(valor) * 100);

export class PspStore {
  readonly cobs = new Map<string, Cob>();
  readonly received = new Map<string, PixRecebido>();
  readonly envios = new Map<string, Envio>();
  /** Bearer token → expiry (epoch ms). */
  readonly tokens = new Map<string, number>();
  webhookUrl: string | null = null;
  private lastLocationId = 0;

  /** The lists' records generated when read (lists.ts), beside the maps above. */
  readonly seeded: { received: SeededWindow[]; envios: SeededWindow[] } = { received: [], envios: [] };

  createCob(txid: string, body: Record<string, any>): Cob {
    const criacao = new Date().toISOString();
    // The location carries no scheme, as the standard's examples (the payer's app adds https://).
    const location = `pix.fake-psp.example/qr/v2/${randomUUID().replace(/-/g, '')}`;
    const pixCopiaECola = generatePixPayload({ url: location, merchantName: 'FAKE PSP RECEBEDOR', merchantCity: 'SAO PAULO' });
    if (pixCopiaECola === null) throw new Error(`fake PSP: no BR Code for ${location}`);
    const cob: Cob = {
      calendario: { criacao, expiracao: body.calendario?.expiracao ?? 86400 },
      txid,
      revisao: 0,
      loc: { id: ++this.lastLocationId, txid, location, tipoCob: 'cob', criacao },
      location,
      status: 'ATIVA',
      ...(body.devedor === undefined ? {} : { devedor: body.devedor }),
      valor: { original: body.valor.original, modalidadeAlteracao: body.valor.modalidadeAlteracao ?? 0 },
      chave: body.chave,
      ...(body.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: body.solicitacaoPagador }),
      ...(body.infoAdicionais === undefined ? {} : { infoAdicionais: body.infoAdicionais }),
      pixCopiaECola,
    };
    this.cobs.set(txid, cob);
    return cob;
  }

  pay(txid: string, amountCents: number | undefined, payer: PixRecebido['pagador']): PixRecebido {
    const cob = this.cobs.get(txid);
    if (!cob) throw new Error(`fake PSP: no cob ${txid}`);
    if (cob.status !== 'ATIVA') throw new Error(`fake PSP: cob ${txid} is ${cob.status}, not ATIVA`);
    const pix: PixRecebido = {
      endToEndId: spiId('E', PAYER_ISPB),
      txid,
      valor: amountCents === undefined ? cob.valor.original : centsToValor(amountCents),
      chave: cob.chave,
      horario: new Date().toISOString(),
      ...(payer ? { pagador: payer } : {}),
    };
    cob.status = 'CONCLUIDA';
    cob.pix = [...(cob.pix ?? []), pix];
    this.received.set(pix.endToEndId, pix);
    return pix;
  }

  addDevolucao(endToEndId: string, id: string, amountCents: number, natureza: Devolucao['natureza']): void {
    const pix = this.received.get(endToEndId);
    if (!pix) throw new Error(`fake PSP: no received Pix ${endToEndId}`);
    const now = new Date().toISOString();
    pix.devolucoes = [
      ...(pix.devolucoes ?? []),
      {
        id,
        rtrId: spiId('D', FAKE_PSP_ISPB),
        valor: centsToValor(amountCents),
        natureza,
        horario: { solicitacao: now, liquidacao: now },
        status: 'DEVOLVIDO',
      },
    ];
  }

  createEnvio(idEnvio: string, valor: string, pagador: Envio['pagador'], favorecido: Envio['favorecido']): Envio {
    const envio: Envio = {
      endToEndId: spiId('E', FAKE_PSP_ISPB),
      idEnvio,
      valor,
      horario: { solicitacao: new Date().toISOString() },
      status: 'EM_PROCESSAMENTO',
      pagador,
      favorecido,
    };
    this.envios.set(idEnvio, envio);
    return envio;
  }

  completeEnvio(idEnvio: string, status: 'REALIZADO' | 'NAO_REALIZADO'): Envio {
    const envio = this.envios.get(idEnvio);
    if (!envio) throw new Error(`fake PSP: no envio ${idEnvio}`);
    if (envio.status !== 'EM_PROCESSAMENTO') throw new Error(`fake PSP: envio ${idEnvio} is already ${envio.status}`);
    envio.status = status;
    envio.horario.liquidacao = new Date().toISOString();
    return envio;
  }

  envioByEndToEndId(endToEndId: string): Envio | undefined {
    return [...this.envios.values()].find((envio) => envio.endToEndId === endToEndId);
  }
}
