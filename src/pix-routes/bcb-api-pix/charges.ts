// The charge side of a PSP route (API Pix `cob`): an immediate charge per engine charge, named by its
// txid (the transaction id without `_`), so every call is idempotent by the engine's id. DESIGN.md
// "Real Pix routes": create with PUT /cob/{txid}, paid only when GET /cob/{txid} shows a Pix of the
// full amount, expired with PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR (a payment that won the race
// prevails), MED devoluções read from GET /pix/{e2eid}.
import { buildBrCode } from '../../domain/brcode.js';
import { qrPngBase64 } from '../../domain/qrcode.js';
import type { Logger } from '../../runtime/log.js';
import {
  RouteRefused,
  type ChargeRoute,
  type ChargeState,
  type CreatedCharge,
  type RouteChargeRequest,
  type RouteMedReturn,
  type RoutePayer,
} from '../types.js';
import type { components } from './api-pix.js';
import { centsOfPspAmount, pspAmount } from './amounts.js';
import { answerOf, PspRouteSide } from './client.js';
import { PspUnavailable } from './errors.js';
import { txidOf } from './ids.js';

type Cob = components['schemas']['CobGerada'];
type CobCompleta = components['schemas']['CobCompleta'];
type ReceivedPix = NonNullable<CobCompleta['pix']>[number];

const MED_NATURES = ['MED_OPERACIONAL', 'MED_FRAUDE'];
const DESCRIPTION_LIMIT = 140;
const NAME_LIMIT = 200;

export interface PspChargeSettings {
  /** `calendario.expiracao` of every cob: CHARGE_TTL_SECONDS. */
  chargeTtlSeconds: number;
  log: Logger;
}

export class BcbApiPixChargeRoute extends PspRouteSide<PspChargeSettings> implements ChargeRoute {
  async createCharge(request: RouteChargeRequest): Promise<CreatedCharge> {
    const txid = txidOf(request.transactionId);
    const { route } = this.client;
    const devedor = debtorOf(request.payer);
    const created = await answerOf(
      this.client.api.PUT('/cob/{txid}', {
        params: { path: { txid } },
        body: {
          calendario: { expiracao: this.settings.chargeTtlSeconds },
          valor: { original: pspAmount(request.amountCents) },
          chave: route.pixKey,
          ...(devedor ? { devedor } : {}),
          ...(request.description ? { solicitacaoPagador: request.description.slice(0, DESCRIPTION_LIMIT) } : {}),
        },
      }),
      `route ${route.name}: PUT /cob/${txid}`,
    );
    // A refusal may answer a repetition whose first attempt did create the cob: read it back first.
    const cob: Cob = created.ok ? created.data : await this.existingCob(txid, created.rejected);
    const copyPaste = cob.pixCopiaECola ?? this.dynamicBrCode(cob, txid, request.merchantName);
    return { routeRef: txid, copyPaste, qrCodeBase64: await qrPngBase64(copyPaste) };
  }

  async chargeStatus(transactionId: string): Promise<ChargeState> {
    const cob = await this.readCob(transactionId);
    if (!cob) throw new PspUnavailable(`route ${this.name}: GET /cob/${txidOf(transactionId)} found no cob`);
    return this.stateOf(transactionId, cob);
  }

  async cancelCharge(transactionId: string, reason: 'expired' | 'other'): Promise<ChargeState> {
    const txid = txidOf(transactionId);
    const removed = await answerOf(
      this.client.api.PATCH('/cob/{txid}', { params: { path: { txid } }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }),
      `route ${this.name}: PATCH /cob/${txid}`,
    );
    if (removed.ok) return { status: 'cancelled', expired: reason === 'expired' };
    // No longer ATIVA (paid, or removed already): the cob as it is decides, and a payment prevails.
    const cob = await this.readCob(transactionId);
    if (!cob) return { status: 'cancelled', expired: reason === 'expired' };
    const state = this.stateOf(transactionId, cob);
    // A cob concluded by a Pix of another amount can no longer be paid: cancelled here, the alert is logged.
    if (state.status === 'pending' && cob.status === 'CONCLUIDA') return { status: 'cancelled', expired: reason === 'expired' };
    return state;
  }

  async medReturns(endToEndId: string): Promise<RouteMedReturn[]> {
    const answer = await answerOf(
      this.client.api.GET('/pix/{e2eid}', { params: { path: { e2eid: endToEndId } } }),
      `route ${this.name}: GET /pix/${endToEndId}`,
    );
    if (!answer.ok) throw answer.rejected;
    return (answer.data.devolucoes ?? [])
      .filter((devolucao) => devolucao.status === 'DEVOLVIDO' && MED_NATURES.includes(devolucao.natureza ?? ''))
      .map((devolucao) => ({
        id: devolucao.id,
        nature: devolucao.natureza!,
        amountCents: centsOfPspAmount(devolucao.valor) ?? 0,
        returnedAt: new Date(devolucao.horario.liquidacao ?? devolucao.horario.solicitacao ?? Date.now()),
      }))
      .filter((devolucao) => devolucao.amountCents > 0);
  }

  /** The cob of the engine's charge, or null when the PSP has none (404). */
  private async readCob(transactionId: string): Promise<CobCompleta | null> {
    const txid = txidOf(transactionId);
    const answer = await answerOf(
      this.client.api.GET('/cob/{txid}', { params: { path: { txid } } }),
      `route ${this.name}: GET /cob/${txid}`,
    );
    if (answer.ok) return answer.data;
    if (answer.rejected.status === 404) return null;
    throw answer.rejected;
  }

  private async existingCob(txid: string, refusal: Error): Promise<Cob> {
    const read = await answerOf(this.client.api.GET('/cob/{txid}', { params: { path: { txid } } }), `route ${this.name}: GET /cob/${txid}`);
    if (read.ok) return read.data;
    // Only an absent cob makes the refusal final; another answer leaves the question open, so it is asked again.
    if (read.rejected.status === 404) throw new RouteRefused(refusal.message);
    throw read.rejected;
  }

  private stateOf(transactionId: string, cob: CobCompleta): ChargeState {
    if (cob.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return { status: 'cancelled', expired: true };
    if (cob.status === 'REMOVIDA_PELO_PSP') return { status: 'cancelled', expired: false };
    if (cob.status !== 'CONCLUIDA') return { status: 'pending' };
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

  /** The BR Code of a cob whose answer carried no pixCopiaECola: dynamic, pointing at its location. */
  private dynamicBrCode(cob: Cob, txid: string, merchantName: string): string {
    const location = cob.location ?? cob.loc?.location;
    if (!location) throw new PspUnavailable(`route ${this.name}: cob ${txid} has neither pixCopiaECola nor location`);
    return buildBrCode({ url: location.replace(/^https?:\/\//, ''), txid, merchantName, merchantCity: this.client.route.merchantCity });
  }
}

/** `devedor` when the payer has a name and a CPF or a numeric CNPJ (the standard's patterns). */
function debtorOf(payer: RoutePayer | undefined): Cob['devedor'] | null {
  const name = payer?.name?.trim();
  const document = payer?.document;
  if (!name || !document) return null;
  if (/^\d{11}$/.test(document)) return { cpf: document, nome: name.slice(0, NAME_LIMIT) };
  if (/^\d{14}$/.test(document)) return { cnpj: document, nome: name.slice(0, NAME_LIMIT) };
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
