// The fake PSP's HTTPS server: mTLS (the engine's client certificate or no handshake), OAuth 2.0
// client credentials, the standard's cob/pix/webhook operations (cobv, devoluções and Pix Automático
// in modules of their own) and Efí's send API, and the lists of
// both (lists.ts). Every request (path parameter, query, body) is checked against the schemas, recorded
// with the verdict, and a non-conforming one answered 400.
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils';
import { listRoutes } from './lists.js';
import { queryViolations, violations, type QueryName, type SchemaName, type Violation } from './schemas.js';
import { centsToValor, type PspStore } from './store.js';
import { devolucaoRoutes } from './devolucoes.js';
import { cobvRoutes } from './cobv.js';
import { recurrenceRoutes } from './recurrences.js';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, without its `?` (empty when none). */
  query: string;
  body: unknown;
  conforms: boolean;
  errors: string[];
  /** The answer's status; 0 when the connection was reset instead. */
  status: number;
}

export interface PspServerContext {
  store: PspStore;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  tokenBody: 'form' | 'json';
  tokenTtlSeconds: number;
  requests: RecordedRequest[];
  /** The current outage's mode, or null when up. */
  outage(): '503' | 'reset' | null;
  tokenIssued(): void;
}

export interface Answer {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Why the request does not conform to the standard (recorded; empty when it does). */
  errors?: string[];
}

interface Call {
  param: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingMessage['headers'];
  rawBody: string;
}

export interface Route {
  method: string;
  path: RegExp;
  /** The path parameter's schema. */
  param?: SchemaName;
  /** The parameters the query string is checked against. */
  query?: QueryName;
  /** The JSON body's schema. */
  body?: SchemaName;
  /** The token endpoint itself needs no Bearer token. */
  public?: boolean;
  /** The answer to a request whose path parameter or body does not conform. */
  refuse?: (errors: string[], violations: Violation[]) => Answer;
  handle(call: Call, ctx: PspServerContext): Answer;
}

const describe = (v: Violation) => `${v.path === '' ? '(root)' : v.path} ${v.message}`;

function problem(status: number, type: string, title: string, detail: string, violacoes?: Violation[], prefix = ''): Answer {
  return {
    status,
    contentType: 'application/problem+json',
    body: {
      type: `https://pix.bcb.gov.br/api/v2/error/${type}`,
      title,
      status,
      detail,
      ...(violacoes?.length
        ? { violacoes: violacoes.map((v) => ({ razao: v.message, propriedade: `${prefix}${v.path.replace(/\//g, '.')}` })) }
        : {}),
    },
  };
}

const json = (status: number, body: unknown): Answer => ({ status, body });
/** Efí's error shape. */
const efiError = (status: number, nome: string, mensagem: string): Answer => json(status, { nome, mensagem });

const refuseEfi = (errors: string[]) => efiError(400, 'json_invalido', errors.join('; '));

const notFound = () => problem(404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
const cobInvalid = (detail: string, violacoes?: Violation[]) =>
  problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', detail, violacoes, 'cob');
const refuseCob = (_: string[], found: Violation[]) =>
  cobInvalid(
    'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
    found,
  );

/** A webhook registration (PUT /webhook/{chave}, /webhookrec, /webhookcobr) that does not conform. */
const refuseWebhook = (_: string[], found: Violation[]) =>
  problem(
    400,
    'WebhookOperacaoInvalida',
    'Webhook inválido.',
    'A presente requisição busca criar um webhook sem respeitar o _schema_.',
    found,
    'webhook',
  );

function issueToken(call: Call, ctx: PspServerContext): Answer {
  const [scheme, encoded] = (call.headers.authorization ?? '').split(' ');
  const [id, secret] = Buffer.from(encoded ?? '', 'base64')
    .toString('utf8')
    .split(':');
  if (scheme !== 'Basic' || id !== ctx.clientId || secret !== ctx.clientSecret) {
    return { ...json(401, { error: 'invalid_client' }), headers: { 'www-authenticate': 'Basic realm="fake-psp"' } };
  }
  const contentType = call.headers['content-type'] ?? '';
  let grantType: unknown;
  if (ctx.tokenBody === 'json') {
    if (contentType.startsWith('application/json')) grantType = (call.body as { grant_type?: unknown } | null)?.grant_type;
  } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
    grantType = new URLSearchParams(call.rawBody).get('grant_type');
  }
  if (grantType !== 'client_credentials') {
    const expected = ctx.tokenBody === 'json' ? 'JSON {"grant_type":"client_credentials"}' : 'form grant_type=client_credentials';
    return {
      ...json(400, { error: 'invalid_request', error_description: `expected ${expected}` }),
      errors: [`token request body: expected ${expected}`],
    };
  }
  const token = randomBytes(24).toString('base64url');
  ctx.store.tokens.set(token, Date.now() + ctx.tokenTtlSeconds * 1000);
  ctx.tokenIssued();
  return json(200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: ctx.tokenTtlSeconds,
    scope: 'cob.write cob.read pix.read webhook.write',
  });
}

const ROUTES: Route[] = [
  { method: 'POST', path: /^\/oauth\/token$/, public: true, handle: issueToken },
  {
    method: 'PUT',
    path: /^\/v2\/cob\/([^/]+)$/,
    param: 'txid',
    body: 'cobSolicitada',
    refuse: refuseCob,
    handle({ param: txid, body }, { store, pixKey }) {
      const request = body as Record<string, any>;
      if (request.chave !== pixKey) return cobInvalid(`A chave ${String(request.chave)} não pertence ao usuário recebedor.`);
      if (store.cobs.has(txid)) return cobInvalid(`O txid ${txid} já foi utilizado.`);
      return json(201, store.createCob(txid, request));
    },
  },
  {
    method: 'PATCH',
    path: /^\/v2\/cob\/([^/]+)$/,
    param: 'txid',
    body: 'cobRevisada',
    refuse: refuseCob,
    handle({ param: txid, body }, { store }) {
      const cob = store.cobs.get(txid);
      if (!cob) return notFound();
      if (cob.status !== 'ATIVA')
        return problem(400, 'CobOperacaoInvalida', 'Operação inválida.', `A cobrança ${txid} não está ATIVA: ${cob.status}.`);
      const { status, calendario, valor, devedor, solicitacaoPagador } = body as Record<string, any>;
      if (status !== undefined) cob.status = status;
      if (calendario?.expiracao !== undefined) cob.calendario.expiracao = calendario.expiracao;
      if (valor?.original !== undefined) cob.valor.original = valor.original;
      if (devedor !== undefined) cob.devedor = devedor;
      if (solicitacaoPagador !== undefined) cob.solicitacaoPagador = solicitacaoPagador;
      cob.revisao += 1;
      return json(200, cob);
    },
  },
  {
    method: 'GET',
    path: /^\/v2\/cob\/([^/]+)$/,
    param: 'txid',
    refuse: refuseCob,
    handle: ({ param: txid }, { store }) => {
      const cob = store.cobs.get(txid);
      return cob ? json(200, cob) : notFound();
    },
  },
  {
    method: 'GET',
    path: /^\/v2\/pix\/([^/]+)$/,
    param: 'endToEndId',
    refuse: () => notFound(),
    handle: ({ param: endToEndId }, { store }) => {
      const pix = store.received.get(endToEndId);
      return pix ? json(200, pix) : notFound();
    },
  },
  {
    method: 'PUT',
    path: /^\/v2\/webhook\/([^/]+)$/,
    param: 'chave',
    body: 'webhookSolicitado',
    refuse: refuseWebhook,
    handle({ param: chave, body }, { store, pixKey }) {
      if (chave !== pixKey) return notFound();
      store.webhookUrl = (body as { webhookUrl: string }).webhookUrl;
      return { status: 200 };
    },
  },
  // Efí's send API (not in the standard): a Pix to a key, a Pix paying a BR Code, the envio's state.
  {
    method: 'PUT',
    path: /^\/v3\/gn\/pix\/([^/]+)$/,
    param: 'idEnvio',
    body: 'efiEnvioChave',
    refuse: refuseEfi,
    handle({ param: idEnvio, body }, ctx) {
      const { valor, pagador, favorecido } = body as {
        valor: string;
        pagador: { chave: string; infoPagador?: string };
        favorecido: { chave: string };
      };
      return createEnvio(ctx, idEnvio, valor, pagador, { chave: favorecido.chave });
    },
  },
  {
    method: 'PUT',
    path: /^\/v2\/gn\/pix\/([^/]+)\/qrcode$/,
    param: 'idEnvio',
    body: 'efiEnvioQrCode',
    refuse: refuseEfi,
    handle({ param: idEnvio, body }, ctx) {
      const { pagador, pixCopiaECola } = body as { pagador: { chave: string; infoPagador?: string }; pixCopiaECola: string };
      const code = getPixPayloadInfo(pixCopiaECola);
      if (!code) return efiError(400, 'qrcode_invalido', 'O pixCopiaECola não é um BR Code válido.');
      return createEnvio(ctx, idEnvio, code.amount === undefined ? '0.00' : centsToValor(Math.round(code.amount * 100)), pagador, {
        pixCopiaECola,
      });
    },
  },
  {
    method: 'GET',
    path: /^\/v2\/gn\/pix\/enviados\/id-envio\/([^/]+)$/,
    param: 'idEnvio',
    refuse: refuseEfi,
    handle: ({ param: idEnvio }, { store }) => {
      const envio = store.envios.get(idEnvio);
      return envio ? json(200, envio) : efiError(404, 'pix_nao_encontrado', `Nenhum Pix enviado com idEnvio ${idEnvio}.`);
    },
  },
  ...listRoutes(problem),
  ...devolucaoRoutes({ json, problem, notFound }),
  ...cobvRoutes({ json, problem, notFound }),
  ...recurrenceRoutes({ json, problem, notFound }, refuseWebhook),
];

function createEnvio(
  ctx: PspServerContext,
  idEnvio: string,
  valor: string,
  pagador: { chave: string; infoPagador?: string },
  favorecido: { chave?: string; pixCopiaECola?: string },
): Answer {
  if (pagador.chave !== ctx.pixKey) return efiError(400, 'chave_pagador_invalida', `A chave ${pagador.chave} não pertence à conta.`);
  if (ctx.store.envios.has(idEnvio)) return efiError(409, 'id_envio_duplicado', `O idEnvio ${idEnvio} já foi utilizado.`);
  const envio = ctx.store.createEnvio(idEnvio, valor, pagador, favorecido);
  return json(201, {
    idEnvio,
    e2eId: envio.endToEndId,
    valor: envio.valor,
    horario: { solicitacao: envio.horario.solicitacao },
    status: envio.status,
  });
}

function bearerIsValid(call: Call, ctx: PspServerContext): boolean {
  const match = /^Bearer (\S+)$/.exec(call.headers.authorization ?? '');
  const expiresAt = match ? ctx.store.tokens.get(match[1]!) : undefined;
  return expiresAt !== undefined && expiresAt > Date.now();
}

function parseJson(rawBody: string): { ok: true; value: unknown } | { ok: false } {
  if (rawBody === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(rawBody) };
  } catch {
    return { ok: false };
  }
}

function answer(method: string, path: string, call: Call, ctx: PspServerContext): Answer {
  const route = ROUTES.find((r) => r.method === method && r.path.test(path));
  if (!route) return { ...notFound(), errors: [`${method} ${path} is not an operation of the fake PSP`] };
  if (!route.public && !bearerIsValid(call, ctx)) {
    return {
      ...problem(401, 'AcessoNegado', 'Não autorizado', 'Token de acesso ausente, expirado ou desconhecido.'),
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    };
  }
  const param = decodeURIComponent(route.path.exec(path)?.[1] ?? '');
  const notJson = route.body !== undefined && !(call.headers['content-type'] ?? '').startsWith('application/json');
  const found = [
    ...(route.param ? violations(route.param, param).map((v) => ({ ...v, path: `/${route.param}` })) : []),
    ...(route.query ? queryViolations(route.query, call.query) : []),
    ...(notJson ? [{ path: '', message: 'must be sent as Content-Type application/json' }] : []),
    ...(route.body ? violations(route.body, call.body) : []),
  ];
  if (found.length > 0) {
    const errors = found.map(describe);
    const refusal = route.refuse?.(errors, found) ?? problem(400, 'RequisicaoInvalida', 'Requisição inválida.', errors.join('; '));
    return { ...refusal, errors };
  }
  return route.handle({ ...call, param }, ctx);
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, ctx: PspServerContext): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const rawBody = Buffer.concat(chunks).toString('utf8');
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'https://fake-psp');
  const path = url.pathname;
  const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const parsed = isForm ? { ok: true as const, value: Object.fromEntries(new URLSearchParams(rawBody)) } : parseJson(rawBody);
  const body = parsed.ok ? parsed.value : rawBody;
  const record = (status: number, errors: string[]) =>
    ctx.requests.push({ method, path, query: url.search.slice(1), body, conforms: errors.length === 0, errors, status });

  const outage = ctx.outage();
  if (outage === 'reset') {
    record(0, []);
    req.socket.destroy();
    return;
  }
  const result: Answer =
    outage === '503'
      ? problem(503, 'ServicoIndisponivel', 'Serviço Indisponível', 'Serviço não está disponível no momento.')
      : !parsed.ok
        ? {
            ...problem(400, 'RequisicaoInvalida', 'Requisição inválida.', 'O corpo da requisição não é JSON.'),
            errors: ['body is not JSON'],
          }
        : answer(method, path, { param: '', query: url.searchParams, body, headers: req.headers, rawBody }, ctx);
  record(result.status, result.errors ?? []);
  const text = result.body === undefined ? '' : JSON.stringify(result.body);
  res.writeHead(result.status, {
    ...(text ? { 'content-type': result.contentType ?? 'application/json' } : {}),
    'content-length': Buffer.byteLength(text),
    ...result.headers,
  });
  res.end(text);
}

/** Listens on 127.0.0.1 (a random port) with the PSP's server certificate, requiring a client certificate signed by `clientCaPem`. */
export async function startPspServer(
  ctx: PspServerContext,
  tls: { certPem: string; keyPem: string; clientCaPem: string },
): Promise<{ server: Server; port: number }> {
  const server = createServer(
    { cert: tls.certPem, key: tls.keyPem, ca: tls.clientCaPem, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      handleRequest(req, res, ctx).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake PSP defect: ${String(error)}`);
      });
    },
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}
