// The fake PSP's due-date charges: the standard's `PUT`, `GET` and `PATCH /cobv/{txid}`, the path
// parameter and the bodies checked against the standard's schemas (CobVSolicitada, CobVRevisada), kept
// in the standard's CobVGerada shape (CobVCompleta once paid). A test pays one with the value the PSP
// computed for the day (what the payer's app showed), which becomes a received Pix (GET /pix/{e2eid},
// webhooks) as a cob's payment does.
import { randomUUID } from 'node:crypto';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import type { Answer, Route } from './server.js';
import type { Violation } from './schemas.js';
import { centsToValor, PAYER_ISPB, spiId, type CobStatus, type PixRecebido, type PspStore } from './store.js';
import type { Answers } from './devolucoes.js';

/** The standard's CobVGerada; `pix` (CobVCompleta) once paid. */
export interface CobV {
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  txid: string;
  revisao: number;
  loc: { id: number; location: string; tipoCob: 'cobv'; criacao: string };
  status: CobStatus;
  devedor: Record<string, unknown>;
  recebedor: Record<string, unknown>;
  valor: Record<string, unknown> & { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
  pix?: PixRecebido[];
}

/** Who the fake PSP says receives its cobvs (the standard requires the receiver's address). */
const RECEBEDOR = {
  cnpj: '11222333000181',
  nome: 'FAKE PSP RECEBEDOR LTDA',
  logradouro: 'Rua das Cobranças, 100',
  cidade: 'São Paulo',
  uf: 'SP',
  cep: '01001000',
};

const cobvsOf = new WeakMap<PspStore, Map<string, CobV>>();

function cobvs(store: PspStore): Map<string, CobV> {
  let byTxid = cobvsOf.get(store);
  if (!byTxid) cobvsOf.set(store, (byTxid = new Map()));
  return byTxid;
}

export const findCobv = (store: PspStore, txid: string): CobV | undefined => cobvs(store).get(txid);

/** The payer pays cobv `txid` the value the PSP computed for the day: CONCLUIDA with its Pix. No webhook is sent. */
export function payCobv(
  store: PspStore,
  txid: string,
  payment: { amountCents: number; at?: Date; payer?: PixRecebido['pagador'] },
): PixRecebido {
  const cobv = findCobv(store, txid);
  if (!cobv) throw new Error(`fake PSP: no cobv ${txid}`);
  if (cobv.status !== 'ATIVA') throw new Error(`fake PSP: cobv ${txid} is ${cobv.status}, not ATIVA`);
  const pix: PixRecebido = {
    endToEndId: spiId('E', PAYER_ISPB),
    txid,
    valor: centsToValor(payment.amountCents),
    chave: cobv.chave,
    horario: (payment.at ?? new Date()).toISOString(),
    ...(payment.payer ? { pagador: payment.payer } : {}),
  };
  cobv.status = 'CONCLUIDA';
  cobv.pix = [pix];
  store.received.set(pix.endToEndId, pix);
  return pix;
}

let lastLocationId = 1_000_000;

function createCobv(store: PspStore, txid: string, body: Record<string, any>): CobV {
  const criacao = new Date().toISOString();
  const location = `pix.fake-psp.example/qr/v2/cobv/${randomUUID().replace(/-/g, '')}`;
  const pixCopiaECola = generatePixPayload({ url: location, merchantName: 'FAKE PSP RECEBEDOR', merchantCity: 'SAO PAULO' });
  if (pixCopiaECola === null) throw new Error(`fake PSP: no BR Code for ${location}`);
  const cobv: CobV = {
    calendario: {
      criacao,
      dataDeVencimento: body.calendario.dataDeVencimento,
      validadeAposVencimento: body.calendario.validadeAposVencimento ?? 30,
    },
    txid,
    revisao: 0,
    loc: { id: ++lastLocationId, location, tipoCob: 'cobv', criacao },
    status: 'ATIVA',
    devedor: body.devedor,
    recebedor: RECEBEDOR,
    valor: body.valor,
    chave: body.chave,
    ...(body.solicitacaoPagador === undefined ? {} : { solicitacaoPagador: body.solicitacaoPagador }),
    pixCopiaECola,
  };
  cobvs(store).set(txid, cobv);
  return cobv;
}

/** What the standard asks beyond the schema: discounts on or before the due date. */
function semanticProblem(body: Record<string, any>): string | null {
  const dueDate: string = body.calendario.dataDeVencimento;
  const discounts: { data: string }[] = body.valor?.desconto?.descontoDataFixa ?? [];
  const late = discounts.find((discount) => discount.data > dueDate);
  return late ? `A data de desconto ${late.data} é posterior à data de vencimento ${dueDate}.` : null;
}

export function cobvRoutes({ json, problem, notFound }: Answers): Route[] {
  const invalid = (detail: string, found?: Violation[]): Answer =>
    problem(400, 'CobVOperacaoInvalida', 'Cobrança inválida.', detail, found, 'cobv');
  const refuse = (_: string[], found: Violation[]) =>
    invalid(
      'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
      found,
    );
  const path = /^\/v2\/cobv\/([^/]+)$/;
  return [
    {
      method: 'PUT',
      path,
      param: 'txid',
      body: 'cobVSolicitada',
      refuse,
      handle({ param: txid, body }, { store, pixKey }) {
        const request = body as Record<string, any>;
        if (request.chave !== pixKey) return invalid(`A chave ${String(request.chave)} não pertence ao usuário recebedor.`);
        if (findCobv(store, txid) || store.cobs.has(txid)) return invalid(`O txid ${txid} já foi utilizado.`);
        const semantic = semanticProblem(request);
        if (semantic) return { ...invalid(semantic), errors: [semantic] };
        return json(201, createCobv(store, txid, request));
      },
    },
    {
      method: 'PATCH',
      path,
      param: 'txid',
      body: 'cobVRevisada',
      refuse,
      handle({ param: txid, body }, { store }) {
        const cobv = findCobv(store, txid);
        if (!cobv) return notFound();
        if (cobv.status !== 'ATIVA') return invalid(`A cobrança ${txid} não está ATIVA: ${cobv.status}.`);
        const { status } = body as { status?: CobStatus };
        if (status !== undefined) cobv.status = status;
        cobv.revisao += 1;
        return json(200, cobv);
      },
    },
    {
      method: 'GET',
      path,
      param: 'txid',
      refuse,
      handle: ({ param: txid }, { store }) => {
        const cobv = findCobv(store, txid);
        return cobv ? json(200, cobv) : notFound();
      },
    },
  ];
}
