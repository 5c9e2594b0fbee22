// The self-description under /v1, generated from the route table itself: GET /v1 (endpoint summary),
// GET /v1/openapi.json (OpenAPI 3.1), GET /v1/docs (its HTML reference) and GET /v1/llms.txt. Public,
// behind the per-IP protection only.
// The table is passed as a function because these routes are part of it.
import Type from 'typebox';
import type { Config } from '../../config/config.js';
import { ok } from '../../http/edge.js';
import { toolsFor } from '../../mcp/tools.js';
import { buildOpenApiDocument } from '../../openapi/document.js';
import { rawResponse } from '../../openapi/envelopes.js';
import { WEBHOOK_EVENTS } from '../../openapi/events.js';
import { apiBaseUrl, mcpUrl } from '../../openapi/paths.js';
import { referencePage, REFERENCE_PAGE_CSP } from '../../openapi/reference-page.js';
import { llmsTxt, ServiceSummarySchema, serviceSummary, type ServiceCatalogue } from '../../openapi/summary.js';
import type { RouteSpec } from '../../routing/public-route.js';

/** What the self-description describes: the route table, its events and the addresses of `config`. */
export function catalogueOf(table: RouteSpec[], config: Pick<Config, 'publicBaseUrl'>): ServiceCatalogue {
  return {
    routes: table,
    baseUrl: apiBaseUrl(config),
    mcpUrl: mcpUrl(config),
    mcpTools: toolsFor(table).map((t) => t.name),
    events: WEBHOOK_EVENTS,
  };
}

/** Everything is generated once per process and configuration: the table does not change while running. */
function memoByConfig<T>(make: (catalogue: ServiceCatalogue) => T, routes: () => RouteSpec[]): (config: Config) => T {
  const made = new WeakMap<Config, T>();
  return (config) => {
    if (!made.has(config)) made.set(config, make(catalogueOf(routes(), config)));
    return made.get(config)!;
  };
}

const OpenApiDocumentSchema = rawResponse(
  Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true, description: 'This OpenAPI 3.1 document' }),
  'application/json',
);
const ApiReferenceSchema = rawResponse(Type.String({ description: 'HTML page rendered from this OpenAPI document' }), 'text/html');
const LlmsTxtSchema = rawResponse(Type.String({ description: 'Markdown text following the llms.txt convention' }), 'text/plain');

const publicRoute: Pick<RouteSpec, 'method' | 'permission' | 'financial' | 'successStatuses'> = {
  method: 'GET',
  permission: null,
  financial: false,
  successStatuses: [200],
};

/** A document answered as it is, without the envelope, with its own content type. */
function documentRoute(
  route: Pick<RouteSpec, 'path' | 'summary' | 'operationId' | 'response'>,
  contentType: string,
  text: (config: Config) => string,
  headers: Record<string, string> = {},
): RouteSpec {
  return {
    ...publicRoute,
    ...route,
    handler: async (ctx, deps) => {
      ctx.set(headers);
      ctx.type = contentType;
      ctx.body = text(deps.config);
    },
  };
}

export function selfDescriptionRoutes(routes: () => RouteSpec[]): RouteSpec[] {
  const summary = memoByConfig(serviceSummary, routes);
  const document = memoByConfig((catalogue) => JSON.stringify(buildOpenApiDocument(catalogue)), routes);
  const reference = memoByConfig((catalogue) => referencePage(buildOpenApiDocument(catalogue)), routes);
  const text = memoByConfig(llmsTxt, routes);
  return [
    {
      ...publicRoute,
      path: '/',
      summary: 'Resumo dos endpoints (método, caminho, permissão, finalidade)',
      operationId: 'getServiceSummary',
      response: ServiceSummarySchema,
      handler: async (ctx, deps) => ok(ctx, summary(deps.config)),
    },
    documentRoute(
      {
        path: '/openapi.json',
        summary: 'Especificação OpenAPI 3.1 deste serviço',
        operationId: 'getOpenApiDocument',
        response: OpenApiDocumentSchema,
      },
      'application/json',
      document,
    ),
    documentRoute(
      {
        path: '/docs',
        summary: 'Referência da API em HTML, gerada da especificação OpenAPI',
        operationId: 'getApiReference',
        response: ApiReferenceSchema,
      },
      'text/html; charset=utf-8',
      reference,
      { 'Content-Security-Policy': REFERENCE_PAGE_CSP },
    ),
    documentRoute(
      {
        path: '/llms.txt',
        summary: 'Resumo em texto para modelos de linguagem (llms.txt)',
        operationId: 'getLlmsTxt',
        response: LlmsTxtSchema,
      },
      'text/plain; charset=utf-8',
      text,
    ),
  ];
}
