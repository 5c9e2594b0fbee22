// The refund side of a PSP route (API Pix devolução): the received Pix that paid the charge (its
// endToEndId) is returned with PUT /pix/{e2eid}/devolucao/{id}, nature ORIGINAL, where id is the
// refund id without `_`, so a repeated request is the same devolução; the outcome is read with GET on
// the same path (EM_PROCESSAMENTO pending, DEVOLVIDO approved, NAO_REALIZADO failed with the PSP's
// `motivo`). A refusal of the PUT is believed only after the devolução is read back and not found: a
// refund that may have reached the PSP is never released on a guess (DESIGN.md "PSP errors").
import type { RefundRoute, RefundState, RouteRefundRequest } from '../refund-route.js';
import { RouteRefused } from '../types.js';
import type { components } from './api-pix.js';
import { pspAmount } from './amounts.js';
import { answerOf, PspRouteSide } from './client.js';
import { PspUnavailable } from './errors.js';
import { devolucaoIdOf } from './ids.js';

type Devolucao = components['schemas']['Devolucao'];

const NOT_DONE = 'Devolução não realizada pelo PSP';

export class BcbApiPixRefundRoute extends PspRouteSide<Record<string, never>> implements RefundRoute {
  async sendRefund(request: RouteRefundRequest): Promise<RefundState> {
    const { e2eid, id } = this.pathOf(request);
    const sent = await answerOf(
      this.client.api.PUT('/pix/{e2eid}/devolucao/{id}', {
        params: { path: { e2eid, id } },
        body: {
          valor: pspAmount(request.amountCents),
          natureza: 'ORIGINAL',
          ...(request.description ? { descricao: request.description } : {}),
        },
      }),
      `route ${this.name}: PUT /pix/${e2eid}/devolucao/${id}`,
    );
    if (sent.ok) return stateOf(sent.data);
    const devolucao = await this.readDevolucao(e2eid, id);
    if (!devolucao) throw new RouteRefused(sent.rejected.message);
    return stateOf(devolucao);
  }

  async refundStatus(request: RouteRefundRequest): Promise<RefundState> {
    const { e2eid, id } = this.pathOf(request);
    const devolucao = await this.readDevolucao(e2eid, id);
    if (!devolucao) throw new PspUnavailable(`route ${this.name}: devolução ${id} of Pix ${e2eid} not found at the PSP`);
    return stateOf(devolucao);
  }

  private pathOf({ refundId, endToEndId }: RouteRefundRequest): { e2eid: string; id: string } {
    if (endToEndId === null) {
      throw new RouteRefused(`route ${this.name}: the charge's Pix has no endToEndId, so the PSP cannot be asked to return it`);
    }
    return { e2eid: endToEndId, id: devolucaoIdOf(refundId) };
  }

  /** The devolução as the PSP has it, or null when it has none (404). */
  private async readDevolucao(e2eid: string, id: string): Promise<Devolucao | null> {
    const answer = await answerOf(
      this.client.api.GET('/pix/{e2eid}/devolucao/{id}', { params: { path: { e2eid, id } } }),
      `route ${this.name}: GET /pix/${e2eid}/devolucao/${id}`,
    );
    if (answer.ok) return answer.data;
    if (answer.rejected.status === 404) return null;
    throw answer.rejected;
  }
}

function stateOf(devolucao: Devolucao): RefundState {
  // rtrId is required by the standard; an answer without one leaves the refund's endToEndId unset.
  const routeRef = devolucao.rtrId || null;
  if (devolucao.status === 'DEVOLVIDO') {
    const settledAt = devolucao.horario.liquidacao ?? devolucao.horario.solicitacao;
    return { status: 'approved', routeRef, settledAt: settledAt ? new Date(settledAt) : new Date() };
  }
  if (devolucao.status === 'NAO_REALIZADO') return { status: 'failed', routeRef, reason: devolucao.motivo || NOT_DONE };
  return { status: 'pending', routeRef };
}
