// Admin routes of reconciliation against the PSP (books.md): start a run over a route and a window
// (at most 7 days), list the runs newest first, and show one with its items. A run is a workflow: the
// start answers 202 with the run `running`; GET shows how it went.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { invalidRequest, notFound } from '../../http/errors.js';
import { instantField, statementWindow } from '../../ledger/statement-schema.js';
import { routeNames } from '../../pix-routes/registry.js';
import { findRun, listRuns, runItems } from '../../reconciliation/repository.js';
import { RunSchema, RunWithItemsSchema, serializeItem, serializeRun } from '../../reconciliation/schema.js';
import { startReconciliation } from '../../reconciliation/workflow-client.js';
import { okPage, PageQuerySchema, type Page } from '../../routing/pagination.js';
import { validQuery } from '../../routing/validate-request.js';
import { closed, idParam } from '../fields.js';
import { NOT_FOUND } from './errors.js';
import type { AdminRoute } from './index.js';

/** The longest window of one run. */
export const MAX_RUN_DAYS = 7;

const routeField = Type.String({ minLength: 1, description: 'A rota Pix: simulator ou uma rota de PIX_ROUTES_FILE (GET /admin/routes)' });

const RunBody = closed({
  route: routeField,
  from: instantField('Início da janela, incluído'),
  to: instantField(`Fim da janela, excluído; depois de from e no máximo ${MAX_RUN_DAYS} dias depois`),
});

const RunsQuery = Type.Object({ ...PageQuerySchema, route: Type.Optional(routeField) });

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

export const RECONCILIATION_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/reconciliations',
    summary: `Concilia uma rota Pix com os registros do PSP numa janela [from, to) de até ${MAX_RUN_DAYS} dias: corrige o que pode, põe em suspense o dinheiro sem dono e abre itens para um operador`,
    operationId: 'startReconciliation',
    request: { body: RunBody },
    response: RunWithItemsSchema,
    successStatuses: [202],
    errors: [{ status: 503, code: 'internal_error' }],
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
];
