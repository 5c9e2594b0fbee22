// The recurrence side of a PSP route (API Pix `locrec` and `rec`, design/pix-automatico.md): a location
// (POST /locrec), then the recurrence on it (POST /rec) naming, in journey 3, the first payment's cob;
// its authorization code is the PSP's `dadosQR.pixCopiaECola` (GET /rec/{idRec}). The payer's answer
// is read from GET /rec/{idRec}, and the merchant's cancellation is PATCH /rec/{idRec} CANCELADA.
// POST creates on every call: the creation runs inside the PostgreSQL transaction that keeps the
// recurrence (src/recurrences/open-at-route.ts), so a creation that fails keeps nothing of ours, and
// a recurrence the PSP made for an attempt that failed is never shown to a payer (it expires there).
import type { components } from './api-pix.js';
import { pspAmount } from './amounts.js';
import { answerOf, PspRouteSide } from './client.js';
import { PspUnavailable } from './errors.js';
import { txidOf } from './ids.js';
import {
  RouteRefused,
  type CreatedRecurrence,
  type RecurrenceRoute,
  type RouteRecurrenceRequest,
  type RouteRecurrenceState,
} from '../types.js';
import type { RecurrenceFrequency } from '../../recurrences/contract.js';

type RecSolicitada = components['schemas']['RecSolicitada'];
type RecCompleta = components['schemas']['RecCompleta'];

const PERIODICIDADE: Record<RecurrenceFrequency, RecSolicitada['calendario']['periodicidade']> = {
  weekly: 'SEMANAL',
  monthly: 'MENSAL',
  quarterly: 'TRIMESTRAL',
  semiannual: 'SEMESTRAL',
  annual: 'ANUAL',
};

const NAME_LIMIT = 140;

/** The body of `POST /rec` for `request` on location `loc`. */
export function recBody(request: RouteRecurrenceRequest, loc: number): RecSolicitada {
  const nome = request.payer.name.slice(0, NAME_LIMIT);
  const devedor = request.payer.document.length === 11 ? { cpf: request.payer.document, nome } : { cnpj: request.payer.document, nome };
  return {
    vinculo: { objeto: request.description, contrato: request.contract, devedor },
    calendario: {
      dataInicial: request.firstDueDate,
      ...(request.endDate === null ? {} : { dataFinal: request.endDate }),
      periodicidade: PERIODICIDADE[request.frequency],
    },
    valor:
      request.amountCents !== null
        ? { valorRec: pspAmount(request.amountCents) }
        : { valorMinimoRecebedor: pspAmount(request.minimumAmountCents!) },
    politicaRetentativa: request.retryPolicy === 'three_in_seven_days' ? 'PERMITE_3R_7D' : 'NAO_PERMITE',
    loc,
    ...(request.firstPaymentTransactionId === null
      ? {}
      : { ativacao: { dadosJornada: { txid: txidOf(request.firstPaymentTransactionId) } } }),
  };
}

/** What a rec's status says of the payer's answer; `encerramento.cancelamento.solicitante` tells who cancelled. */
export function recurrenceStateOf(rec: Pick<RecCompleta, 'status' | 'encerramento'>): RouteRecurrenceState {
  switch (rec.status) {
    case 'APROVADA':
      return { status: 'authorized' };
    case 'REJEITADA':
      return { status: 'rejected' };
    case 'EXPIRADA':
      return { status: 'expired' };
    case 'CANCELADA': {
      const solicitante = (rec.encerramento as { cancelamento?: { solicitante?: string } } | undefined)?.cancelamento?.solicitante;
      const by = solicitante === 'USUARIO_RECEBEDOR' ? 'merchant' : solicitante === 'PSP_RECEBEDOR' ? 'route' : 'payer';
      return { status: 'cancelled', by };
    }
    default:
      return { status: 'pending' };
  }
}

export class BcbApiPixRecurrenceRoute extends PspRouteSide<Record<string, never>> implements RecurrenceRoute {
  async createRecurrence(request: RouteRecurrenceRequest): Promise<CreatedRecurrence> {
    const { name } = this;
    const location = await answerOf(this.client.api.POST('/locrec'), `route ${name}: POST /locrec`);
    if (!location.ok) throw new RouteRefused(location.rejected.message);
    const loc = location.data.id;
    const created = await answerOf(this.client.api.POST('/rec', { body: recBody(request, loc) }), `route ${name}: POST /rec`);
    // A refusal may answer a repetition whose first attempt did create the rec: the location names it then.
    const idRec = created.ok ? created.data.idRec : await this.recOfLocation(loc, created.rejected);
    if (!idRec) throw new PspUnavailable(`route ${name}: POST /rec answered no idRec`);
    const rec = await this.readRec(idRec);
    const copyPaste = rec.dadosQR?.pixCopiaECola;
    if (!copyPaste) throw new PspUnavailable(`route ${name}: GET /rec/${idRec} has no dadosQR.pixCopiaECola yet`);
    return { routeRef: idRec, copyPaste };
  }

  async recurrenceStatus(routeRef: string): Promise<RouteRecurrenceState> {
    return recurrenceStateOf(await this.readRec(routeRef));
  }

  async cancelRecurrence(routeRef: string): Promise<RouteRecurrenceState> {
    const cancelled = await answerOf(
      this.client.api.PATCH('/rec/{idRec}', { params: { path: { idRec: routeRef } }, body: { status: 'CANCELADA' } }),
      `route ${this.name}: PATCH /rec/${routeRef}`,
    );
    if (cancelled.ok) return { status: 'cancelled', by: 'merchant' };
    // No longer open (the payer answered, or it was cancelled already): the rec as it is decides.
    const state = await this.recurrenceStatus(routeRef);
    if (state.status === 'pending') throw cancelled.rejected;
    return state;
  }

  private async readRec(idRec: string): Promise<RecCompleta> {
    const answer = await answerOf(
      this.client.api.GET('/rec/{idRec}', { params: { path: { idRec } } }),
      `route ${this.name}: GET /rec/${idRec}`,
    );
    if (!answer.ok) throw answer.rejected;
    return answer.data;
  }

  private async recOfLocation(loc: number, refusal: Error): Promise<string | undefined> {
    const read = await answerOf(
      this.client.api.GET('/locrec/{id}', { params: { path: { id: String(loc) } } }),
      `route ${this.name}: GET /locrec/${loc}`,
    );
    if (!read.ok) throw read.rejected;
    // A location that names no recurrence: the PSP refused this one.
    if (!read.data.idRec) throw new RouteRefused(refusal.message);
    return read.data.idRec;
  }
}
