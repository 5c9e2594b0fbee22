// Admin routes of reconciliation against the PSP (books.md): start a run over a route and a window
// (at most 7 days), list the runs newest first, and show one with its items. A run is a workflow: the
// start answers 202 with the run `running`; GET shows how it went.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../http/errors.js';
import { statementWindow } from '../ledger/statement-schema.js';
import { instant } from '../http/request-schema.js';
import { routeNames } from '../pix-routes/registry.js';
import { findRun, listRuns, runItems } from './repository.js';
import { ItemSchema, RunSchema, RunWithItemsSchema, serializeItem, serializeRun } from './schema.js';
import { startReconciliation, startSuspenseRefund } from './workflow-client.js';
import { dispatchResolution, ResolutionConflict, resolveItem, type ResolutionRequest } from './resolve.js';
import { refundRoutes } from './resolve-refund.js';
import { okPage, PageQuerySchema, type Page } from '../routing/pagination.js';
import { validQuery } from '../routing/validate-request.js';
import { closed, idParam, trimmedText } from '../routing/admin-fields.js';
import { NOT_FOUND, OPERATION_REFUSED } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

/** The longest window of one run. */
export const MAX_RUN_DAYS = 7;

const routeField = Type.String({ minLength: 1, description: 'A rota Pix: simulator ou uma rota de PIX_ROUTES_FILE (GET /admin/routes)' });

const RunBody = closed({
  route: routeField,
  from: instant('Início da janela, incluído'),
  to: instant(`Fim da janela, excluído; depois de from e no máximo ${MAX_RUN_DAYS} dias depois`),
});

const RunsQuery = Type.Object({ ...PageQuerySchema, route: Type.Optional(routeField) });

const ResolveBody = closed({
  action: Type.Enum(['credit', 'refund', 'dismiss'], {
    description:
      'credit: credita o valor em suspense a uma conta (accountId) como um depósito; refund: devolve-o ao pagador (devolução ORIGINAL); dismiss: fecha um item que não retém dinheiro (note)',
  }),
  accountId: Type.Optional(Type.String({ minLength: 1, description: 'credit: a conta creditada (acc_…)' })),
  note: Type.Optional(trimmedText(500, 'dismiss: por que o item é fechado')),
});

const RESOLUTION_CONFLICT = { status: 409, code: 'resolution_conflict' };

/** The body as a resolution: each action with its own field, and only it. */
function resolutionOf(body: Static<typeof ResolveBody>): ResolutionRequest {
  const stray = (field: 'accountId' | 'note') => invalidRequest(`${field} não se aplica a ${body.action}`, `/${field}`);
  if (body.action !== 'credit' && body.accountId !== undefined) throw stray('accountId');
  if (body.action !== 'dismiss' && body.note !== undefined) throw stray('note');
  if (body.action === 'credit') {
    if (body.accountId === undefined) throw invalidRequest('accountId é obrigatório para credit', '/accountId');
    return { action: 'credit', accountId: body.accountId };
  }
  if (body.action === 'dismiss') {
    if (body.note === undefined) throw invalidRequest('note é obrigatório para dismiss', '/note');
    return { action: 'dismiss', note: body.note.trim() };
  }
  return { action: 'refund' };
}

/** The route names this engine knows; any other is a 400 naming the field, as for an account's route. */
function knownRoute(deps: Deps, route: string): string {
  const names = routeNames(deps.config);
  if (!names.includes(route)) throw invalidRequest(`route deve ser uma rota configurada (${names.join(', ')})`, '/route');
  return route;
}

async function start(ctx: Koa.Context, deps: Deps) {
  const body = ctx.request.body as Static<typeof RunBody>;
  const route = knownRoute(deps, body.route);
  const window = statementWindow(body, MAX_RUN_DAYS);
  if (window.to.getTime() === window.from.getTime()) throw invalidRequest('to deve ser posterior a from', '/to');
  const run = await startReconciliation(deps, { route, ...window });
  deps.log.info({ runId: run.id, route, from: body.from, to: body.to }, 'reconciliation run started');
  ok(ctx, { ...serializeRun(run), items: [] }, 202);
}

async function list(ctx: Koa.Context, deps: Deps) {
  const { page, limit, route } = validQuery(ctx, RunsQuery) as Page & { route?: string };
  okPage(ctx, { page, limit }, await listRuns(deps.sql, { route, page, limit }), serializeRun);
}

async function show(ctx: Koa.Context, deps: Deps) {
  const run = await findRun(deps.sql, ctx.params.id!);
  if (!run) throw notFound('Execução de conciliação não encontrada');
  ok(ctx, { ...serializeRun(run), items: (await runItems(deps.sql, run.id)).map(serializeItem) });
}

async function resolve(ctx: Koa.Context, deps: Deps) {
  const request = resolutionOf(ctx.request.body as Static<typeof ResolveBody>);
  let resolved;
  try {
    resolved = await resolveItem({ sql: deps.sql, refundRoute: refundRoutes(deps) }, ctx.params.id!, request);
  } catch (err) {
    if (!(err instanceof ResolutionConflict)) throw err;
    if (err.reason === 'not_found') throw notFound(err.message);
    if (err.reason === 'account_not_found') throw notFound(err.message).at('/accountId');
    throw new ApiError(409, RESOLUTION_CONFLICT.code, err.message);
  }
  await dispatchResolution(deps, resolved);
  if (resolved.refundPending) await startSuspenseRefund(deps, resolved.item.id);
  deps.log.info({ itemId: resolved.item.id, action: request.action }, 'reconciliation item resolved');
  ok(ctx, serializeItem(resolved.item));
}

export const RECONCILIATION_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/reconciliations',
    summary: `Concilia uma rota Pix com os registros do PSP numa janela [from, to) de até ${MAX_RUN_DAYS} dias: corrige o que pode, põe em suspense o dinheiro sem dono e abre itens para um operador`,
    operationId: 'startReconciliation',
    request: { body: RunBody },
    response: RunWithItemsSchema,
    successStatuses: [202],
    handler: start,
  },
  {
    method: 'GET',
    path: '/reconciliations',
    summary: 'Lista as execuções da conciliação, das mais recentes para as mais antigas',
    operationId: 'listReconciliations',
    request: { query: RunsQuery },
    response: Type.Array(RunSchema),
    handler: list,
  },
  {
    method: 'GET',
    path: '/reconciliations/:id',
    summary: 'Mostra uma execução da conciliação com os itens que encontrou',
    operationId: 'getReconciliation',
    request: { params: idParam('Identificador da execução (rcn_…)') },
    response: RunWithItemsSchema,
    errors: [NOT_FOUND],
    handler: show,
  },
  {
    method: 'POST',
    path: '/reconciliations/items/:id/resolve',
    summary:
      'Resolve um item aberto: credit (com accountId) credita o valor em suspense à conta como um depósito; refund o devolve ao pagador; dismiss (com note) fecha um item que não retém dinheiro. A mesma resolução de novo responde o item; outra é 409',
    operationId: 'resolveReconciliationItem',
    request: { params: idParam('Identificador do item (rci_…)'), body: ResolveBody },
    response: ItemSchema,
    errors: [NOT_FOUND, RESOLUTION_CONFLICT, OPERATION_REFUSED],
    handler: resolve,
  },
];
