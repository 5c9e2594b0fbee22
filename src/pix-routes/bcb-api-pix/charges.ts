// The charge side of a PSP route (API Pix `cob`, and `cobv` for a due-date charge): a PSP charge per
// engine charge, named by its txid (the transaction id without `_`), so every call is idempotent by the
// engine's id. DESIGN.md "Real Pix routes": create with PUT /cob/{txid}, paid only when GET /cob/{txid}
// shows a Pix of the full amount, expired with PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR (a payment that
// won the race prevails), MED devoluções read from GET /pix/{e2eid}. A due-date charge goes the same
// way through /cobv/{txid} (cobv.ts), paid by a Pix of whatever value the PSP computed for its day.
import { buildBrCode } from '../../domain/brcode.js';
import { qrPngBase64 } from '../../domain/qrcode.js';
import type { Logger } from '../../runtime/log.js';
import {
  RouteRefused,
  type ChargeRoute,
  type ChargeState,
  type CreatedCharge,
  type RouteChargeRequest,
  type RouteCycle,
  type RouteDueDateCharge,
  type RouteMedReturn,
  type RoutePayer,
} from '../types.js';
import { MED_REFUND_NATURES } from '../route-records.js';
import type { components } from './api-pix.js';
import { centsOfPspAmount, pspAmount } from './amounts.js';
import { answerOf, PspRouteSide, type PspAnswer } from './client.js';
import { PspUnavailable } from './errors.js';
import { txidOf } from './ids.js';
import { cobvBody, judgePaidCobv } from './cobv.js';
import { cobrBody, CobrCalls, cycleStateOf } from './cobr.js';

type Cob = components['schemas']['CobGerada'];
type CobCompleta = components['schemas']['CobCompleta'] | components['schemas']['CobVCompleta'];
/** What a created cob or cobv answers with its BR Code. */
type CreatedCob = Pick<Cob, 'pixCopiaECola' | 'location'> & { loc?: { location?: string } };
type ReceivedPix = NonNullable<CobCompleta['pix']>[number];
/** `cob` for an immediate charge, `cobv` for a due-date one: the same calls on another path. */
type CobKind = 'cob' | 'cobv';
const kindOf = (due: unknown): CobKind => (due ? 'cobv' : 'cob');

const DESCRIPTION_LIMIT = 140;
const NAME_LIMIT = 200;

export interface PspChargeSettings {
  /** `calendario.expiracao` of every cob: CHARGE_TTL_SECONDS. */
  chargeTtlSeconds: number;
  log: Logger;
}

export class BcbApiPixChargeRoute extends PspRouteSide<PspChargeSettings> implements ChargeRoute {
  private readonly cobr = new CobrCalls(this.client);

  async createCharge(request: RouteChargeRequest): Promise<CreatedCharge> {
    const txid = txidOf(request.transactionId);
    if (request.cycle) return this.createCycle(txid, { ...request, cycle: request.cycle });
    const kind = kindOf(request.due);
    // A refusal may answer a repetition whose first attempt did create the cob: read it back first.
    const created = await this.putCob(txid, request);
    const cob: CreatedCob = created.ok ? created.data : await this.existingCob(txid, kind, created.rejected);
    const copyPaste = cob.pixCopiaECola ?? this.dynamicBrCode(cob, txid, request.merchantName);
    return { routeRef: txid, copyPaste, qrCodeBase64: await qrPngBase64(copyPaste) };
  }

  /**
   * A cycle charge is debited by the payer's bank, not paid by a code: its code is a static BR Code of the
   * route's key and the amount. It names no txid: the cobr's (27 characters) does not fit a static code's 25,
   * and no PSP ties a static code's txid to a cobr; a Pix paying it reaches reconciliation as one without txid.
   */
  private async createCycle(txid: string, request: RouteChargeRequest & { cycle: RouteCycle }): Promise<CreatedCharge> {
    const created = await this.cobr.put(txid, cobrBody(request, this.client));
    if (!created.ok) {
      // A refusal may answer a repetition whose first attempt did create the cobr: read it back first.
      const read = await this.cobr.get(txid);
      if (!read.ok && read.rejected.status === 404) throw new RouteRefused(created.rejected.message);
      if (!read.ok) throw read.rejected;
    }
    const { route } = this.client;
    const copyPaste = buildBrCode({
      pixKey: route.pixKey,
      amountCents: request.amountCents,
      merchantName: request.merchantName,
      merchantCity: route.merchantCity,
    });
    return { routeRef: txid, copyPaste, qrCodeBase64: await qrPngBase64(copyPaste) };
  }

  private putCob(txid: string, request: RouteChargeRequest): Promise<PspAnswer<CreatedCob>> {
    const { route } = this.client;
    const devedor = debtorOf(request.payer);
    const solicitacaoPagador = request.description ? request.description.slice(0, DESCRIPTION_LIMIT) : null;
    if (request.due) {
      // The engine's due-date charges always name a payer the standard takes: without one, nothing can be created.
      if (!devedor) throw new RouteRefused(`route ${route.name}: a cobv needs a payer with a name and a CPF or CNPJ`);
      const body = cobvBody({ ...request, due: request.due }, route.pixKey, devedor, solicitacaoPagador);
      return answerOf(this.client.api.PUT('/cobv/{txid}', { params: { path: { txid } }, body }), `route ${route.name}: PUT /cobv/${txid}`);
    }
    return answerOf(
      this.client.api.PUT('/cob/{txid}', {
        params: { path: { txid } },
        body: {
          calendario: { expiracao: this.settings.chargeTtlSeconds },
          valor: { original: pspAmount(request.amountCents) },
          chave: route.pixKey,
          ...(devedor ? { devedor } : {}),
          ...(solicitacaoPagador ? { solicitacaoPagador } : {}),
        },
      }),
      `route ${route.name}: PUT /cob/${txid}`,
    );
  }

  async chargeStatus(transactionId: string, due?: RouteDueDateCharge): Promise<ChargeState> {
    if (due?.cycle) {
      const read = await this.cobr.get(txidOf(transactionId));
      if (!read.ok) throw read.rejected.status === 404 ? new PspUnavailable(read.rejected.message) : read.rejected;
      return cycleStateOf(this.settings.log, this.name, transactionId, read.data);
    }
    const kind = kindOf(due);
    const cob = await this.readCob(transactionId, kind);
    if (!cob) throw new PspUnavailable(`route ${this.name}: GET /${kind}/${txidOf(transactionId)} found no ${kind}`);
    return this.stateOf(transactionId, cob, due);
  }

  async cancelCharge(transactionId: string, reason: 'expired' | 'other', due?: RouteDueDateCharge): Promise<ChargeState> {
    const txid = txidOf(transactionId);
    if (due?.cycle) return this.cancelCycle(transactionId, reason, due);
    const kind = kindOf(due);
    const what = `route ${this.name}: PATCH /${kind}/${txid}`;
    const options = { params: { path: { txid } }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' as const } };
    const removed: PspAnswer<unknown> =
      kind === 'cobv'
        ? await answerOf(this.client.api.PATCH('/cobv/{txid}', options), what)
        : await answerOf(this.client.api.PATCH('/cob/{txid}', options), what);
    if (removed.ok) return { status: 'cancelled', expired: reason === 'expired' };
    // No longer ATIVA (paid, or removed already): the cob as it is decides, and a payment prevails.
    const cob = await this.readCob(transactionId, kind);
    if (!cob) return { status: 'cancelled', expired: reason === 'expired' };
    const state = this.stateOf(transactionId, cob, due);
    // A cob concluded by a Pix of another amount can no longer be paid: cancelled here, the alert is logged.
    if (state.status === 'pending' && cob.status === 'CONCLUIDA') return { status: 'cancelled', expired: reason === 'expired' };
    return state;
  }

  /** Withdraws a cycle's cobr; no longer ATIVA (debited, or ended already), the cobr as it is decides, and a payment prevails. */
  private async cancelCycle(transactionId: string, reason: 'expired' | 'other', due: RouteDueDateCharge): Promise<ChargeState> {
    const cancelled = await this.cobr.cancel(txidOf(transactionId));
    if (cancelled.ok) return { status: 'cancelled', expired: reason === 'expired' };
    // Still open though the PSP refused: the cancellation is asked again (cancelChargeAtRoute retries).
    return this.chargeStatus(transactionId, due);
  }

  retryCycle(transactionId: string, day: string): Promise<void> {
    return this.cobr.retry(transactionId, day);
  }

  async medReturns(endToEndId: string): Promise<RouteMedReturn[]> {
    const answer = await answerOf(
      this.client.api.GET('/pix/{e2eid}', { params: { path: { e2eid: endToEndId } } }),
      `route ${this.name}: GET /pix/${endToEndId}`,
    );
    if (!answer.ok) throw answer.rejected;
    return (answer.data.devolucoes ?? [])
      .filter((devolucao) => devolucao.status === 'DEVOLVIDO' && MED_REFUND_NATURES.includes(devolucao.natureza ?? ''))
      .map((devolucao) => ({
        id: devolucao.id,
        nature: devolucao.natureza!,
        amountCents: centsOfPspAmount(devolucao.valor) ?? 0,
        returnedAt: new Date(devolucao.horario.liquidacao ?? devolucao.horario.solicitacao ?? Date.now()),
      }))
      .filter((devolucao) => devolucao.amountCents > 0);
  }

  private async getCob(txid: string, kind: CobKind): Promise<PspAnswer<CobCompleta>> {
    const options = { params: { path: { txid } } };
    const what = `route ${this.name}: GET /${kind}/${txid}`;
    if (kind === 'cobv') return answerOf(this.client.api.GET('/cobv/{txid}', options), what);
    return answerOf(this.client.api.GET('/cob/{txid}', options), what);
  }

  /** The cob (or cobv) of the engine's charge, or null when the PSP has none (404). */
  private async readCob(transactionId: string, kind: CobKind): Promise<CobCompleta | null> {
    const answer = await this.getCob(txidOf(transactionId), kind);
    if (answer.ok) return answer.data;
    if (answer.rejected.status === 404) return null;
    throw answer.rejected;
  }

  private async existingCob(txid: string, kind: CobKind, refusal: Error): Promise<CreatedCob> {
    const read = await this.getCob(txid, kind);
    if (read.ok) return read.data;
    // Only an absent cob makes the refusal final; another answer leaves the question open, so it is asked again.
    if (read.rejected.status === 404) throw new RouteRefused(refusal.message);
    throw read.rejected;
  }

  private stateOf(transactionId: string, cob: CobCompleta, due?: RouteDueDateCharge): ChargeState {
    if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return { status: 'cancelled', expired: true };
    if (cob.status === 'REMOVIDA_PELO_PSP') return { status: 'cancelled', expired: false };
    if (cob.status !== 'CONCLUIDA') return { status: 'pending' };
    if (due) return this.paidCobv(transactionId, cob, due);
    const expectedCents = centsOfPspAmount(cob.valor.original);
    const received = cob.pix ?? [];
    const full = received.find((pix) => centsOfPspAmount(pix.valor) === expectedCents);
    if (full && expectedCents !== null) {
      return {
        status: 'paid',
        paidAt: new Date(full.horario),
        amountCents: expectedCents,
        payer: payerOf(full),
        endToEndId: full.endToEndId,
      };
    }
    this.settings.log.error(
      {
        alert: 'psp_amount_mismatch',
        route: this.name,
        transactionId,
        expectedCents,
        receivedCents: received.map((pix) => centsOfPspAmount(pix.valor)),
        endToEndIds: received.map((pix) => pix.endToEndId),
      },
      'alert: the PSP concluded a charge with a Pix of another amount; the charge is not approved, an operator must settle it with the payer',
    );
    return { status: 'pending' };
  }

  /** A concluded cobv: paid by its Pix, of the value the PSP computed (judged against the engine's own). */
  private paidCobv(transactionId: string, cob: CobCompleta, due: RouteDueDateCharge): ChargeState {
    const [pix] = cob.pix ?? [];
    const amountCents = pix ? centsOfPspAmount(pix.valor) : null;
    if (!pix || !amountCents) {
      this.settings.log.error(
        { alert: 'psp_cobv_without_pix', route: this.name, transactionId },
        'alert: the PSP concluded a due-date charge without a Pix of a valid value; the charge is not approved, an operator must settle it with the payer',
      );
      return { status: 'pending' };
    }
    const paidAt = new Date(pix.horario);
    judgePaidCobv(this.settings.log, { route: this.name, transactionId, endToEndId: pix.endToEndId }, due, { amountCents, at: paidAt });
    return { status: 'paid', paidAt, amountCents, payer: payerOf(pix), endToEndId: pix.endToEndId };
  }

  /** The BR Code of a cob whose answer carried no pixCopiaECola: dynamic, pointing at its location. */
  private dynamicBrCode(cob: CreatedCob, txid: string, merchantName: string): string {
    const location = cob.location ?? cob.loc?.location;
    if (!location) throw new PspUnavailable(`route ${this.name}: cob ${txid} has neither pixCopiaECola nor location`);
    return buildBrCode({ url: location.replace(/^https?:\/\//, ''), txid, merchantName, merchantCity: this.client.route.merchantCity });
  }
}

/** `devedor` when the payer has a name and a CPF or a CNPJ, numeric or alphanumeric (the standard's patterns). */
function debtorOf(payer: RoutePayer | undefined): Cob['devedor'] | null {
  const name = payer?.name?.trim();
  const document = payer?.document;
  if (!name || !document) return null;
  if (/^\d{11}$/.test(document)) return { cpf: document, nome: name.slice(0, NAME_LIMIT) };
  if (/^[0-9A-Z]{14}$/.test(document)) return { cnpj: document, nome: name.slice(0, NAME_LIMIT) };
  return null;
}

/** What some PSPs add about the payer beside the standard's Pix (`pagador`, Efí's `gnExtras.pagador`). */
export function payerOf(pix: ReceivedPix): RoutePayer {
  const extra = pix as ReceivedPix & { pagador?: Record<string, unknown>; gnExtras?: { pagador?: Record<string, unknown> } };
  const pagador = extra.pagador ?? extra.gnExtras?.pagador;
  if (!pagador) return {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const name = text(pagador.nome);
  const document = text(pagador.cpf) ?? text(pagador.cnpj);
  return { ...(name ? { name } : {}), ...(document ? { document } : {}) };
}
