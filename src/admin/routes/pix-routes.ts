// GET /admin/routes: the Pix routes an account can pick (`simulator` and those of PIX_ROUTES_FILE),
// as operators need to see them; never a secret or key material.
import type Koa from 'koa';
import Type from 'typebox';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { routeSummaries } from '../../pix-routes/registry.js';
import type { AdminRoute } from '../../routing/operation.js';

const nullableUrl = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const RouteSummary = Type.Object(
  {
    name: Type.String({ description: 'O valor de `route` nas contas' }),
    type: Type.Enum(['simulator', 'bcb-api-pix']),
    baseUrl: nullableUrl('Raiz da API Pix do PSP (recebimento)'),
    sendBaseUrl: nullableUrl('Raiz da API de envio (Efí); null sem envio'),
    canSend: Type.Boolean({ description: 'false: transferências na rota são recusadas com 422' }),
    webhookUrl: nullableUrl('URL registrada no PSP para os webhooks Pix; null: só consulta periódica'),
  },
  { additionalProperties: false },
);

export const PIX_ROUTE_ENDPOINTS: AdminRoute[] = [
  {
    method: 'GET',
    path: '/routes',
    summary: 'Lista as rotas Pix que uma conta pode usar: simulator e as de PIX_ROUTES_FILE (sem segredos)',
    operationId: 'listRoutes',
    response: Type.Array(RouteSummary),
    handler: async (ctx: Koa.Context, deps: Deps) => ok(ctx, routeSummaries(deps.config)),
  },
];
