// A recurrence's cycle charge at a PSP (API Pix `cobr`, design/pix-automatico.md): created with
// PUT /cobr/{txid} naming the recurrence (idRec), its due date and amount, read with GET /cobr/{txid},
// withdrawn with PATCH /cobr/{txid} CANCELADA, and, after a debit attempt the payer's bank refused (the
// last entry of `tentativas` REJEITADA while the cobr stays ATIVA), attempted again with
// POST /cobr/{txid}/retentativa/{data}. The payer's bank debits it: paid once CONCLUIDA with its Pix, failed
// once REJEITADA (a refused attempt with no retry left ends the cobr so).
import type { Logger } from '../../runtime/log.js';
import { RouteRefused, type ChargeState, type RouteChargeRequest, type RouteCycle } from '../types.js';
import type { components } from './api-pix.js';
import { centsOfPspAmount, pspAmount } from './amounts.js';
import { answerOf, type PspClient } from './client.js';
import { txidOf } from './ids.js';

type CobRSolicitada = components['schemas']['CobRSolicitada'];
type CobRCompleta = components['schemas']['CobRCompleta'];

/** The body of `PUT /cobr/{txid}`: the standard requires `ajusteDiaUtil` and the receiver's account. */
export function cobrBody(request: RouteChargeRequest & { cycle: RouteCycle }, client: PspClient): CobRSolicitada {
  const { route } = client;
  if (!request.due) throw new RouteRefused(`route ${route.name}: a cycle charge has a due date`);
  if (!request.cycle.recurrenceRef) throw new RouteRefused(`route ${route.name}: recurrence ${request.cycle.recurrenceId} has no idRec`);
  if (!route.receiverAccount) throw new RouteRefused(`route ${route.name} has no receiverAccount: it takes no recurrences`);
  return {
    idRec: request.cycle.recurrenceRef,
    calendario: { dataDeVencimento: request.due.dueDate },
    valor: { original: pspAmount(request.amountCents) },
    ajusteDiaUtil: true,
    recebedor: route.receiverAccount,
  };
}

/** The cycle's state as the cobr shows it: a failed debit with no retry asked yet is `declined`, one with none left `failed`. */
export function cycleStateOf(log: Logger, route: string, transactionId: string, cobr: CobRCompleta): ChargeState {
  if (cobr.status === 'EXPIRADA') return { status: 'cancelled', expired: true };
  if (cobr.status === 'CANCELADA') return { status: 'cancelled', expired: false };
  if (cobr.status === 'REJEITADA') return { status: 'failed' };
  if (cobr.status === 'CONCLUIDA') {
    const expectedCents = centsOfPspAmount(cobr.valor.original);
    const pix = (cobr.pix ?? []).find((received) => centsOfPspAmount(received.valor) === expectedCents);
    if (pix && expectedCents !== null)
      return { status: 'paid', paidAt: new Date(pix.horario), amountCents: expectedCents, payer: {}, endToEndId: pix.endToEndId };
    log.error(
      {
        alert: 'psp_amount_mismatch',
        route,
        transactionId,
        expectedCents,
        receivedCents: (cobr.pix ?? []).map((p) => centsOfPspAmount(p.valor)),
      },
      'alert: the PSP concluded a cycle charge without a Pix of its amount; the charge is not approved, an operator must settle it with the payer',
    );
    return { status: 'pending' };
  }
  const attempts = cobr.tentativas ?? [];
  if (attempts.at(-1)?.status === 'REJEITADA')
    return { status: 'declined', declined: attempts.filter((attempt) => attempt.status === 'REJEITADA').length };
  return { status: 'pending' };
}

/** The cobr calls of a route's charge side. */
export class CobrCalls {
  constructor(private readonly client: PspClient) {}

  private what(call: string): string {
    return `route ${this.client.route.name}: ${call}`;
  }

  put(txid: string, body: CobRSolicitada) {
    return answerOf(this.client.api.PUT('/cobr/{txid}', { params: { path: { txid } }, body }), this.what(`PUT /cobr/${txid}`));
  }

  get(txid: string) {
    return answerOf(this.client.api.GET('/cobr/{txid}', { params: { path: { txid } } }), this.what(`GET /cobr/${txid}`));
  }

  cancel(txid: string) {
    return answerOf(
      this.client.api.PATCH('/cobr/{txid}', { params: { path: { txid } }, body: { status: 'CANCELADA' } }),
      this.what(`PATCH /cobr/${txid}`),
    );
  }

  /** Asks for the next debit attempt on `day`; a refusal is read back: a retry already asked (the last attempt no longer refused) is this one. */
  async retry(transactionId: string, day: string): Promise<void> {
    const txid = txidOf(transactionId);
    const asked = await answerOf(
      this.client.api.POST('/cobr/{txid}/retentativa/{data}', { params: { path: { txid, data: day } } }),
      this.what(`POST /cobr/${txid}/retentativa/${day}`),
    );
    if (asked.ok) return;
    const read = await this.get(txid);
    if (!read.ok) throw read.rejected;
    if (read.data.status !== 'ATIVA' || read.data.tentativas?.at(-1)?.status !== 'REJEITADA') return;
    throw asked.rejected;
  }
}
