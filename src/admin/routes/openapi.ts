// GET /admin/openapi.json: the admin API's own OpenAPI 3.1 document, generated from the admin route
// table (passed as a function, since this route is part of it), behind ADMIN_TOKEN like every /admin path.
import Type from 'typebox';
import type { OperationSpec } from '../../routing/operation.js';
import { buildAdminOpenApiDocument } from '../../openapi/admin-document.js';
import { rawResponse } from '../../openapi/envelopes.js';

const AdminDocumentSchema = rawResponse(
  Type.Object({ openapi: Type.Literal('3.1.0') }, { additionalProperties: true, description: 'This OpenAPI 3.1 document' }),
  'application/json',
);

export function adminDocumentRoute(routes: () => OperationSpec[]): OperationSpec {
  let document: string | undefined;
  return {
    method: 'GET',
    path: '/openapi.json',
    summary: 'Especificação OpenAPI 3.1 da API de administração',
    operationId: 'getAdminOpenApiDocument',
    response: AdminDocumentSchema,
    async handler(ctx) {
      // The table does not change while running: generated once.
      document ??= JSON.stringify(buildAdminOpenApiDocument(routes()));
      ctx.type = 'application/json';
      ctx.body = document;
    },
  };
}
