// The transfer side of a PSP route with `send.type: "efi"`: Efí's send API (the standard has none).
// Each envio is named by its idEnvio (the transfer id without `_`), so a repeated send is the same
// envio. A Pix key: PUT /v3/gn/pix/{idEnvio}; a copy-and-paste or QR code: PUT
// /v2/gn/pix/{idEnvio}/qrcode; the outcome: GET /v2/gn/pix/enviados/id-envio/{idEnvio}. A refusal
// of the send is believed only after the envio is read back and not found: a transfer that may have
// been sent is never released on a guess (DESIGN.md "PSP errors").
import { RouteRefused, type RouteTransferRequest, type TransferRoute, type TransferState } from '../types.js';
import { pspAmount } from './amounts.js';
import { PspRouteSide } from './client.js';
import { PspUnavailable } from './errors.js';
import { idEnvioOf } from './ids.js';

const INFO_LIMIT = 140;

/** Efí's answer about an envio (the fields the engine reads). */
export interface EfiEnvio {
  idEnvio?: string;
  e2eId?: string;
  endToEndId?: string;
  valor?: string;
  status?: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
  horario?: { solicitacao?: string; liquidacao?: string };
}

export interface EfiSendSettings {
  /** Root of Efí's send API (`send.baseUrl` of the route). */
  sendBaseUrl: string;
}

export class EfiTransferRoute extends PspRouteSide<EfiSendSettings> implements TransferRoute {
  async sendTransfer(request: RouteTransferRequest): Promise<TransferState> {
    const idEnvio = idEnvioOf(request.transactionId);
    const { pixKey } = this.client.route;
    const byKey = request.destination.type === 'pix_key';
    const path = byKey ? `/v3/gn/pix/${idEnvio}` : `/v2/gn/pix/${idEnvio}/qrcode`;
    const info = request.description ? { infoPagador: request.description.slice(0, INFO_LIMIT) } : {};
    const body = byKey
      ? { valor: pspAmount(request.amountCents), pagador: { chave: pixKey, ...info }, favorecido: { chave: request.destination.value } }
      : { pagador: { chave: pixKey }, pixCopiaECola: request.destination.value };
    const sent = await this.client.json<EfiEnvio>('PUT', `${this.settings.sendBaseUrl}${path}`, `route ${this.name}: PUT ${path}`, body);
    if (sent.ok) return this.stateOf(idEnvio, sent.data ?? {});
    const envio = await this.readEnvio(idEnvio);
    if (!envio) throw new RouteRefused(sent.rejected.message);
    return this.stateOf(idEnvio, envio);
  }

  async transferStatus(transactionId: string): Promise<TransferState> {
    const idEnvio = idEnvioOf(transactionId);
    const envio = await this.readEnvio(idEnvio);
    if (!envio) throw new PspUnavailable(`route ${this.name}: envio ${idEnvio} not found at the PSP`);
    return this.stateOf(idEnvio, envio);
  }

  /** The envio as the PSP has it, or null when it has none (404). */
  private async readEnvio(idEnvio: string): Promise<EfiEnvio | null> {
    const path = `/v2/gn/pix/enviados/id-envio/${idEnvio}`;
    const answer = await this.client.json<EfiEnvio>('GET', `${this.settings.sendBaseUrl}${path}`, `route ${this.name}: GET ${path}`);
    if (answer.ok) return answer.data ?? {};
    if (answer.rejected.status === 404) return null;
    throw answer.rejected;
  }

  private stateOf(idEnvio: string, envio: EfiEnvio): TransferState {
    const routeRef = envio.endToEndId ?? envio.e2eId ?? idEnvio;
    if (envio.status === 'REALIZADO') {
      const settledAt = envio.horario?.liquidacao ?? envio.horario?.solicitacao;
      return { status: 'approved', routeRef, settledAt: settledAt ? new Date(settledAt) : new Date() };
    }
    if (envio.status === 'NAO_REALIZADO') return { status: 'failed', routeRef, reason: 'Pix não realizado pelo PSP' };
    return { status: 'pending', routeRef };
  }
}
