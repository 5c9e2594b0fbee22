// The OpenAPI 3.1 document of the admin API (GET /admin/openapi.json), generated from the admin route
// table by the same machinery as the public document (operations.ts), with the admin API's own
// access: one bearer token, no quota, the same envelopes and error shape.
import type { OperationSpec } from '../routing/operation.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { SchemaComponents, type Json } from './components.js';
import { SERVICE_HEADERS } from './document.js';
import { ALWAYS, CODE_MEANING, documentedErrors, WITH_BODY, type DocumentedError } from './errors.js';
import { pathsOf, type ApiProfile } from './operations.js';

const SECURITY_SCHEME = 'adminToken';

/** Every admin route: the token. */
const UNAUTHORIZED: DocumentedError[] = [{ status: 401, code: 'unauthorized' }];

const ADMIN_CODE_MEANING: Record<string, string> = {
  ...CODE_MEANING,
  unauthorized: 'Admin token missing or wrong, or ADMIN_TOKEN not configured (every request is then refused)',
  invalid_request: 'Invalid data; the message names the field and `param` points at it',
  not_found: 'The account, key, endpoint, delivery, transaction or MED does not exist',
  duplicate_account: 'Another account has this document or e-mail; send `allowDuplicate: true` to create it anyway',
  operation_refused: 'Refused by a rule: endpoint already registered or too many, delivery of a disabled endpoint, MED not possible',
  charge_already_paid: 'The charge was already paid on the simulated network',
  charge_cancelled: 'The charge was cancelled and cannot be paid',
  charge_expired: 'The charge expired and cannot be paid',
  payment_after_validity: 'The day of the payment (`paidOn`) is past the validity of the due-date charge (dueDate + validityAfterDue)',
};

const ADMIN_PROFILE: ApiProfile<OperationSpec> = {
  security: () => [{ [SECURITY_SCHEME]: [] }],
  access: () => 'Requires the admin token (`Authorization: Bearer <ADMIN_TOKEN>`). No quota.',
  errors: (route) =>
    documentedErrors([
      ...(route.errors ?? []),
      ...UNAUTHORIZED,
      ...(route.request?.body || route.request?.query ? WITH_BODY : []),
      ...ALWAYS,
    ]),
  headers: (_route, status) => ({
    'X-Request-Id': { ...SERVICE_HEADERS['X-Request-Id']!, required: true },
    'X-Service-Version': { ...SERVICE_HEADERS['X-Service-Version']!, required: true },
    ...(status === 503 ? { 'Retry-After': SERVICE_HEADERS['Retry-After']! } : {}),
  }),
  codeMeaning: ADMIN_CODE_MEANING,
};

const DESCRIPTION = [
  'Account administration for operators, on its own port (ADMIN_PORT), and the simulated Pix network (pay a charge, settle a transfer, open a dispute).',
  '',
  '- Authentication: `Authorization: Bearer <ADMIN_TOKEN>` on every path; without ADMIN_TOKEN configured every request is refused.',
  '- Envelopes as on the public API: success `{success: true, data, requestId}`; error `{success: false, error: {code, message, param?}, requestId}`, `param` being the JSON pointer of the field to blame.',
  '- Amounts are decimal reais with at most two decimal places; percents have at most four. Unknown body fields are refused.',
  '- A method a path does not serve answers 405 `method_not_allowed` with an `Allow` header.',
].join('\n');

/** The OpenAPI 3.1 document of the admin routes. */
export function buildAdminOpenApiDocument(routes: OperationSpec[]): Record<string, Json> {
  const components = new SchemaComponents();
  const paths = pathsOf(routes, ADMIN_PROFILE, components);
  return {
    openapi: '3.1.0',
    info: { title: 'Pix Payments Service — admin API', version: SERVICE_VERSION, description: DESCRIPTION },
    servers: [{ url: '/admin', description: 'The admin port of the engine' }],
    paths,
    components: {
      schemas: components.schemas,
      requestBodies: components.requestBodies,
      securitySchemes: { [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the engine' } },
    },
  };
}
