// A conformance fake of a PSP speaking the Central Bank's API Pix (reference file beside this module)
// and Efí's send API, over HTTPS with mTLS and OAuth 2.0 client credentials, on 127.0.0.1. Tests
// point a routes file at it and drive the payer's side through its controls (pay, complete an envio,
// add a devolução, settle or refuse the devoluções asked for, answer a recurrence and debit its
// cobrs, go down, send a webhook, fill the lists reconciliation reads).
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { freePort } from '../../../src/runtime/free-port.js';
import { createFakePspPki, type EngineCertFiles } from './certs.js';
import { listControls, type FakePspLists } from './lists.js';
import { startPspServer, type RecordedRequest } from './server.js';
import { PspStore, type Cob, type Devolucao, type PixRecebido } from './store.js';
import { findDevolucao, refuseDevolucoes, settleDevolucao, type DevolucaoRefusal } from './devolucoes.js';
import { findCobv, payCobv, type CobV } from './cobv.js';
import { answerRec, cobrNotification, debitCobr, recNotification, recurrenceState, type CobR, type Rec } from './recurrences.js';

export interface FakePspOptions {
  tokenBody?: 'form' | 'json';
  tokenTtlSeconds?: number;
}

export interface FakePsp {
  /** Receiving API root as the routes file's baseUrl: https://127.0.0.1:<port>/v2 */
  baseUrl: string;
  /** https://127.0.0.1:<port>/oauth/token */
  tokenUrl: string;
  /** https://127.0.0.1:<port> (Efí send API) */
  sendBaseUrl: string;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** PEM files in a temp dir: the engine's client certificate and key for calling the PSP, the CA of the PSP's server
   *  certificate; and for the engine's webhook listener: its server certificate and key, and the CA that signed the
   *  PSP's webhook client certificate. */
  certs: EngineCertFiles;
  /** The CA of the engine's own certificates (its client certificate and its listener's). */
  engineCaPem: string;
  /** Writes a routes file (DESIGN.md's format) for route `name` (default 'psp') pointing at this fake; `overrides`
   *  are merged into the route object (e.g. { send: undefined } for a route without send, webhookUrl). Returns the path. */
  writeRoutesFile(overrides?: Record<string, unknown>, name?: string): string;
  /** The payer pays cob `txid`: CONCLUIDA with a pix entry (full amount unless amountCents). No webhook is sent. */
  pay(txid: string, options?: { amountCents?: number; payer?: { nome: string; cpf?: string; cnpj?: string } }): { endToEndId: string };
  /** The payer pays cobv `txid` `amountCents` (the value the PSP computed for the day) at `at` (default now). No webhook is sent. */
  payCobv(
    txid: string,
    payment: { amountCents: number; at?: Date; payer?: { nome: string; cpf?: string; cnpj?: string } },
  ): {
    endToEndId: string;
  };
  /** The stored cobv as the standard's CobVCompleta, or undefined. */
  cobv(txid: string): CobV | undefined;
  /** Ends envio `idEnvio` with REALIZADO or NAO_REALIZADO. No webhook is sent. */
  completeEnvio(idEnvio: string, status: 'REALIZADO' | 'NAO_REALIZADO'): { endToEndId: string };
  /** A devolução on received pix `endToEndId`. */
  addDevolucao(endToEndId: string, devolucao: { id: string; amountCents: number; natureza: Devolucao['natureza'] }): void;
  /** Ends devolução `id` (asked for with PUT) of received Pix `endToEndId`: DEVOLVIDO, or NAO_REALIZADO with `motivo`. No webhook is sent. */
  settleDevolucao(endToEndId: string, id: string, status: 'DEVOLVIDO' | 'NAO_REALIZADO', motivo?: string): void;
  /** From now on every PUT of a devolução on received Pix `endToEndId` answers 400 PixDevolucaoInvalida; with `stored` the
   *  devolução is kept first, as when an earlier attempt reached the PSP and its answer was lost. null: as usual again. */
  refuseDevolucoes(endToEndId: string, refusal: DevolucaoRefusal | null): void;
  /** The devolução `id` of received Pix `endToEndId` as the PSP has it, or undefined. */
  devolucao(endToEndId: string, id: string): Devolucao | undefined;
  /** For `ms`: every call answers 503 (mode '503') or the connection is reset (mode 'reset'). */
  down(ms: number, mode?: '503' | 'reset'): void;
  /** POSTs a webhook to the registered webhookUrl + '/pix' (as PSPs do), with the PSP's client certificate unless
   *  withClientCert is false; body defaults to the pix entries of `endToEndIds`. Returns the HTTP status (or throws
   *  on a refused TLS handshake). */
  sendWebhook(input: { endToEndIds?: string[]; body?: unknown; withClientCert?: boolean; url?: string }): Promise<number>;
  /** The recurrences (rec) created, in order, as the standard's RecCompleta. */
  recurrences(): Rec[];
  /** The payer's answer to recurrence `idRec` in the bank's app: authorized, refused or cancelled. No webhook is sent. */
  answerRecurrence(idRec: string, answer: 'APROVADA' | 'REJEITADA' | 'CANCELADA'): void;
  /** The stored cobr as the standard's CobRCompleta, or undefined. */
  cobr(txid: string): CobR | undefined;
  /** The payer's bank's debit attempt of cobr `txid` now: paid (a received Pix) or refused. No webhook is sent. */
  debitCobr(txid: string, outcome: 'PAGA' | 'REJEITADA'): void;
  /** POSTs a webhookrec (`{"recs": […]}` of recurrences `ids`) or a webhookcobr (`{"cobsr": […]}` of cobrs `ids`) to the URL
   *  registered with PUT /webhookrec or /webhookcobr + '/rec' or '/cobr', as sendWebhook does. Returns the HTTP status. */
  sendRecurrenceWebhook(input: { kind: 'rec' | 'cobr'; ids?: string[]; body?: unknown; withClientCert?: boolean }): Promise<number>;
  /** The URLs registered with PUT /webhookrec and PUT /webhookcobr, or null. */
  recurrenceWebhookUrls: { rec: string | null; cobr: string | null };
  /** Every request received, with whether its body and path conformed to the standard's schemas. */
  requests: RecordedRequest[];
  tokensIssued: number;
  /** The registered webhook URL (PUT /webhook/{chave}), or null. */
  webhookUrl: string | null;
  /** The stored cob as the standard's CobCompleta, or undefined. */
  cob(txid: string): Cob | undefined;
  /** Forgets every token issued so far: the next call with one answers 401 (a PSP-side revocation). */
  revokeTokens(): void;
  /** What the lists (GET /pix, Efí's GET /v2/gn/pix/enviados) show beyond the engine's own calls: discrepancies, bulk records. */
  lists: FakePspLists;
  close(): Promise<void>;
}

export type { RecordedRequest };

export async function startFakePsp(options: FakePspOptions = {}): Promise<FakePsp> {
  const pki = createFakePspPki();
  const store = new PspStore();
  const requests: RecordedRequest[] = [];
  const tokenBody = options.tokenBody ?? 'form';
  const clientId = `fake-client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(18).toString('base64url');
  const pixKey = randomUUID();
  let tokensIssued = 0;
  let outage: { until: number; mode: '503' | 'reset' } | null = null;
  let routesFiles = 0;

  const { server, port } = await startPspServer(
    {
      store,
      clientId,
      clientSecret,
      pixKey,
      tokenBody,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      requests,
      outage: () => (outage && Date.now() < outage.until ? outage.mode : null),
      tokenIssued: () => void tokensIssued++,
    },
    { certPem: pki.pspServer.certPem, keyPem: pki.pspServer.keyPem, clientCaPem: pki.engineCaPem },
  );
  const origin = `https://127.0.0.1:${port}`;

  /** A webhook's entry for a Pix: a received one as the standard's Pix, an envio as Efí reports it. */
  function webhookEntry(endToEndId: string): PixRecebido | Record<string, unknown> {
    const received = store.received.get(endToEndId);
    if (received) return structuredClone(received);
    const envio = store.envioByEndToEndId(endToEndId);
    if (!envio) throw new Error(`fake PSP: no Pix ${endToEndId}`);
    return {
      endToEndId,
      valor: envio.valor,
      horario: envio.horario.liquidacao ?? envio.horario.solicitacao,
      ...(envio.favorecido.chave ? { chave: envio.favorecido.chave } : {}),
      status: envio.status,
      tipo: 'SOLICITACAO',
      gnExtras: { idEnvio: envio.idEnvio },
    };
  }

  async function post(target: string, body: unknown, withClientCert: boolean): Promise<number> {
    const url = new URL(target);
    const text = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const req =
      url.protocol === 'https:'
        ? httpsRequest(url, {
            method: 'POST',
            headers,
            agent: false,
            ca: pki.engineCaPem,
            ...(withClientCert ? { cert: pki.pspWebhookClient.certPem, key: pki.pspWebhookClient.keyPem } : {}),
          })
        : httpRequest(url, { method: 'POST', headers, agent: false });
    req.setTimeout(10_000, () => req.destroy(new Error(`fake PSP: webhook to ${target} timed out`)));
    req.end(text);
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    res.resume();
    await once(res, 'end');
    return res.statusCode ?? 0;
  }

  return {
    baseUrl: `${origin}/v2`,
    tokenUrl: `${origin}/oauth/token`,
    sendBaseUrl: origin,
    clientId,
    clientSecret,
    pixKey,
    certs: pki.files,
    engineCaPem: pki.engineCaPem,
    requests,
    get tokensIssued() {
      return tokensIssued;
    },
    get webhookUrl() {
      return store.webhookUrl;
    },

    writeRoutesFile(overrides = {}, name = 'psp') {
      const route = {
        type: 'bcb-api-pix',
        baseUrl: `${origin}/v2`,
        tokenUrl: `${origin}/oauth/token`,
        ...(tokenBody === 'json' ? { tokenBody: 'json' } : {}),
        clientId,
        clientSecret,
        tls: { certFile: pki.files.clientCertFile, keyFile: pki.files.clientKeyFile, caFile: pki.files.pspCaFile },
        pixKey,
        send: { type: 'efi', baseUrl: origin },
        ...overrides,
      };
      const path = join(pki.dir, `routes-${++routesFiles}.json`);
      // JSON drops keys whose value is undefined: { send: undefined } writes a route without send.
      writeFileSync(path, JSON.stringify({ routes: { [name]: route } }, null, 2));
      return path;
    },

    pay(txid, payOptions = {}) {
      return { endToEndId: store.pay(txid, payOptions.amountCents, payOptions.payer).endToEndId };
    },

    payCobv(txid, payment) {
      return { endToEndId: payCobv(store, txid, payment).endToEndId };
    },

    cobv(txid) {
      const cobv = findCobv(store, txid);
      return cobv && structuredClone(cobv);
    },

    completeEnvio(idEnvio, status) {
      return { endToEndId: store.completeEnvio(idEnvio, status).endToEndId };
    },

    addDevolucao(endToEndId, devolucao) {
      store.addDevolucao(endToEndId, devolucao.id, devolucao.amountCents, devolucao.natureza);
    },

    settleDevolucao(endToEndId, id, status, motivo) {
      settleDevolucao(store, endToEndId, id, status, motivo);
    },

    refuseDevolucoes(endToEndId, refusal) {
      refuseDevolucoes(store, endToEndId, refusal);
    },

    devolucao(endToEndId, id) {
      const devolucao = findDevolucao(store, endToEndId, id);
      return devolucao && structuredClone(devolucao);
    },

    down(ms, mode = '503') {
      outage = { until: Date.now() + ms, mode };
    },

    async sendWebhook(input) {
      if (input.url === undefined && store.webhookUrl === null) throw new Error('fake PSP: no webhook registered');
      const target = input.url ?? `${store.webhookUrl}/pix`;
      const body = input.body ?? { pix: (input.endToEndIds ?? []).map(webhookEntry) };
      return post(target, body, input.withClientCert !== false);
    },

    recurrences() {
      return structuredClone([...recurrenceState(store).recs.values()]);
    },

    answerRecurrence(idRec, answer) {
      answerRec(store, idRec, answer);
    },

    cobr(txid) {
      const cobr = recurrenceState(store).cobrs.get(txid);
      return cobr && structuredClone(cobr);
    },

    debitCobr(txid, outcome) {
      debitCobr(store, pixKey, txid, outcome);
    },

    async sendRecurrenceWebhook(input) {
      const state = recurrenceState(store);
      const registered = input.kind === 'rec' ? state.webhookRecUrl : state.webhookCobrUrl;
      if (registered === null) throw new Error(`fake PSP: no webhook${input.kind} registered`);
      const entries = (input.ids ?? []).map((id) => {
        const entry = input.kind === 'rec' ? state.recs.get(id) : state.cobrs.get(id);
        if (!entry) throw new Error(`fake PSP: no ${input.kind} ${id}`);
        return input.kind === 'rec' ? recNotification(entry as Rec) : cobrNotification(entry as CobR);
      });
      const body = input.body ?? (input.kind === 'rec' ? { recs: entries } : { cobsr: entries });
      return post(`${registered}/${input.kind}`, body, input.withClientCert !== false);
    },

    get recurrenceWebhookUrls() {
      const state = recurrenceState(store);
      return { rec: state.webhookRecUrl, cobr: state.webhookCobrUrl };
    },

    cob(txid) {
      const cob = store.cobs.get(txid);
      return cob && structuredClone(cob);
    },

    revokeTokens() {
      store.tokens.clear();
    },

    lists: listControls(store, pixKey),

    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
      rmSync(pki.dir, { recursive: true, force: true });
    },
  };
}

/**
 * The engine's environment for route `psp` on this fake, with its PSP webhook listener on HTTPS with mTLS
 * (the fake's certificates) on a free loopback port; `listenerUrl` is what the route registers. `route`
 * is merged into the route (e.g. a receiverAccount, for recurrences).
 */
export async function engineOnFakePsp(
  psp: FakePsp,
  route: Record<string, unknown> = {},
): Promise<{ listenerUrl: string; env: Record<string, string> }> {
  const listenerPort = await freePort();
  const listenerUrl = `https://127.0.0.1:${listenerPort}/psp-webhooks/psp`;
  return {
    listenerUrl,
    env: {
      PIX_ROUTES_FILE: psp.writeRoutesFile({ webhookUrl: listenerUrl, ...route }),
      PSP_WEBHOOK_HOST: '127.0.0.1',
      PSP_WEBHOOK_PORT: String(listenerPort),
      PSP_WEBHOOK_TLS_CERT_FILE: psp.certs.listenerCertFile,
      PSP_WEBHOOK_TLS_KEY_FILE: psp.certs.listenerKeyFile,
      PSP_WEBHOOK_CLIENT_CA_FILE: psp.certs.listenerClientCaFile,
    },
  };
}
