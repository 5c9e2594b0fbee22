// A PSP route's own records (route-records.ts) for reconciliation: the Pix it received with their
// devoluções, GET {baseUrl}/pix?inicio&fim, and the envios it sent, Efí's GET
// {send.baseUrl}/v2/gn/pix/enviados?inicio&fim (nothing for a route without send). Both are read page
// after page (`paginacao.paginaAtual` from 0 until `quantidadeDePaginas`, 1000 a page, the standard's
// most), one page in memory at a time. The standard's `fim` is inclusive, the window's end is not: a
// record at `to` is left to the next window. A page the PSP does not answer is PspUnavailable (retried);
// a page that is not a page, or a record without a readable amount, time, status or nature, is too,
// since dropping a record would make the books agree falsely.
import type { RouteReceivedRecord, RouteRecords, RouteRefundRecord, RouteSentRecord } from '../route-records.js';
import type { components } from './api-pix.js';
import { centsOfPspAmount } from './amounts.js';
import { payerOf } from './charges.js';
import { answerOf, PspRouteSide } from './client.js';
import type { EfiEnvio } from './efi-send.js';
import { PspUnavailable } from './errors.js';

type Pix = components['schemas']['Pix'];
type Devolucao = components['schemas']['Devolucao'];
type Paginacao = components['schemas']['Paginacao'];

/** Efí's list of envios: the standard's list shape (`parametros.paginacao`, the records in `pix`). */
interface EfiEnvios {
  parametros?: { paginacao?: Paginacao };
  pix?: EfiEnvio[];
}

const MOST_PER_PAGE = 1000;
const REFUND_NATURES: readonly string[] = [
  'ORIGINAL',
  'RETIRADA',
  'MED_OPERACIONAL',
  'MED_FRAUDE',
  'MED_PIX_AUTOMATICO',
] satisfies RouteRefundRecord['nature'][];
const REFUND_STATUSES: readonly string[] = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] satisfies RouteRefundRecord['status'][];
const SENT_STATUSES: readonly string[] = ['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO'] satisfies RouteSentRecord['status'][];

export interface BcbApiPixRecordsSettings {
  /** Root of Efí's send API (`send.baseUrl` of the route); null for a route without send. */
  sendBaseUrl: string | null;
  /** Records asked per page (at most 1000). */
  itemsPerPage?: number;
}

/** One page of a list as it was answered: its paginacao and its records. */
interface ListPage<T> {
  paginacao: Paginacao | undefined;
  records: T[] | undefined;
}

/** What a list is asked for a page: the window (the standard's `fim` is inclusive) and the page. */
interface ListQuery {
  inicio: string;
  fim: string;
  'paginacao.paginaAtual': number;
  'paginacao.itensPorPagina': number;
}

export class BcbApiPixRecords extends PspRouteSide<BcbApiPixRecordsSettings> implements RouteRecords {
  received(from: Date, to: Date): AsyncIterable<RouteReceivedRecord[]> {
    const what = `route ${this.name}: GET /pix`;
    return this.list(from, to, receivedOf, what, async (query) => {
      const page = `${what} page ${query['paginacao.paginaAtual']}`;
      const answer = await answerOf(this.client.api.GET('/pix', { params: { query } }), page);
      if (!answer.ok) throw answer.rejected;
      return { paginacao: answer.data?.parametros?.paginacao, records: answer.data?.pix };
    });
  }

  async *sent(from: Date, to: Date): AsyncIterable<RouteSentRecord[]> {
    const { sendBaseUrl } = this.settings;
    if (!sendBaseUrl) return;
    const path = '/v2/gn/pix/enviados';
    const what = `route ${this.name}: GET ${path}`;
    yield* this.list(from, to, sentOf, what, async (query) => {
      const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
      const answer = await this.client.json<EfiEnvios>(
        'GET',
        `${sendBaseUrl}${path}?${search}`,
        `${what} page ${query['paginacao.paginaAtual']}`,
      );
      if (!answer.ok) throw answer.rejected;
      return { paginacao: answer.data?.parametros?.paginacao, records: answer.data?.pix };
    });
  }

  /**
   * The records of [from, to), a page of them per page of the list (one left empty by the window is
   * skipped), page 0 first, the next page read only when the caller asks for it.
   */
  private async *list<T, R extends { at: Date }>(
    from: Date,
    to: Date,
    recordOf: (record: T, what: string) => R,
    what: string,
    read: (query: ListQuery) => Promise<ListPage<T>>,
  ): AsyncGenerator<R[]> {
    const itemsPerPage = Math.min(this.settings.itemsPerPage ?? MOST_PER_PAGE, MOST_PER_PAGE);
    for (let page = 0, pages = 1; page < pages; page += 1) {
      const query = {
        inicio: from.toISOString(),
        fim: to.toISOString(),
        'paginacao.paginaAtual': page,
        'paginacao.itensPorPagina': itemsPerPage,
      };
      const { paginacao, records } = await read(query);
      if (paginacao?.paginaAtual !== page || !Number.isInteger(paginacao.quantidadeDePaginas) || (records && !Array.isArray(records))) {
        throw new PspUnavailable(`${what}: page ${page} was not answered as one (paginacao ${JSON.stringify(paginacao)})`);
      }
      pages = paginacao.quantidadeDePaginas;
      const kept = (records ?? []).map((record) => recordOf(record, what)).filter((record) => record.at >= from && record.at < to);
      if (kept.length > 0) yield kept;
    }
  }
}

function receivedOf(pix: Pix, what: string): RouteReceivedRecord {
  const where = `${what}: Pix ${pix.endToEndId}`;
  const at = instantOf(pix.horario, `${where} horario`);
  const payer = payerOf(pix);
  return {
    endToEndId: pix.endToEndId,
    txid: pix.txid || null,
    amountCents: amountOf(pix.valor, `${where} valor`),
    at,
    payer: { name: payer.name ?? null, document: payer.document ?? null },
    refunds: (pix.devolucoes ?? []).map((devolucao) => refundOf(devolucao, at, `${where} devolução ${devolucao.id}`)),
  };
}

/** A devolução asked without a time of asking is dated by its settlement, or else by its Pix (none is asked before). */
function refundOf(devolucao: Devolucao, pixAt: Date, where: string): RouteRefundRecord {
  // The standard: a devolução without a nature is of a plain Pix (ORIGINAL).
  const nature = devolucao.natureza ?? 'ORIGINAL';
  if (!REFUND_NATURES.includes(nature)) throw new PspUnavailable(`${where}: natureza ${nature} is not one reconciliation reads`);
  if (!REFUND_STATUSES.includes(devolucao.status))
    throw new PspUnavailable(`${where}: status ${String(devolucao.status)} is not the standard's`);
  const { solicitacao, liquidacao } = devolucao.horario ?? {};
  const settledAt = liquidacao ? instantOf(liquidacao, `${where} horario.liquidacao`) : null;
  return {
    id: devolucao.id,
    rtrId: devolucao.rtrId || null,
    amountCents: amountOf(devolucao.valor, `${where} valor`),
    nature: nature as RouteRefundRecord['nature'],
    status: devolucao.status,
    reason: devolucao.motivo || null,
    requestedAt: solicitacao ? instantOf(solicitacao, `${where} horario.solicitacao`) : (settledAt ?? pixAt),
    settledAt,
  };
}

function sentOf(envio: EfiEnvio, what: string): RouteSentRecord {
  const endToEndId = envio.endToEndId ?? envio.e2eId ?? null;
  // An envio made outside Efí's send API (its app) has no idEnvio: named by its endToEndId, which no transfer of the engine matches.
  const idEnvio = envio.idEnvio || endToEndId;
  if (!idEnvio) throw new PspUnavailable(`${what}: an envio has neither idEnvio nor endToEndId`);
  const where = `${what}: envio ${idEnvio}`;
  if (!envio.status || !SENT_STATUSES.includes(envio.status))
    throw new PspUnavailable(`${where}: status ${String(envio.status)} is not Efí's`);
  return {
    idEnvio,
    endToEndId,
    amountCents: amountOf(envio.valor, `${where} valor`),
    status: envio.status,
    at: instantOf(envio.horario?.solicitacao ?? envio.horario?.liquidacao, `${where} horario`),
  };
}

function amountOf(valor: unknown, where: string): number {
  const cents = centsOfPspAmount(valor);
  if (cents === null) throw new PspUnavailable(`${where}: ${JSON.stringify(valor)} is not an amount`);
  return cents;
}

function instantOf(text: unknown, where: string): Date {
  const at = typeof text === 'string' ? new Date(text) : null;
  if (!at || Number.isNaN(at.getTime())) throw new PspUnavailable(`${where}: ${JSON.stringify(text)} is not a time`);
  return at;
}
