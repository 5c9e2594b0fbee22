// The admin route table, the engine's own routes and each kind's (src/kinds): every admin path is
// declared once, with the typebox schemas of its request and answer; the admin app validates requests with them (validate-request.ts) and GET
// /admin/openapi.json documents them. The codec endpoint (codec.ts) stands outside: it speaks
// Temporal's remote codec protocol, with its own CORS and order of checks.
import type { AdminRoute } from '../../routing/operation.js';
import { KINDS } from '../../kinds/index.js';
import { ACCOUNT_ROUTES } from './accounts.js';
import { API_KEY_ROUTES } from './api-keys.js';
import { EVENT_STREAM_ROUTES } from './events-stream.js';
import { LEDGER_ROUTES } from './ledger.js';
import { adminDocumentRoute } from './openapi.js';
import { PIX_ROUTE_ENDPOINTS } from './pix-routes.js';
import { SIMULATOR_PIX_ROUTES } from './simulator-pix.js';
import { SIMULATOR_TRIGGER_ROUTES } from './simulator-trigger.js';
import { STATEMENT_ROUTES } from './statement.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

export const ADMIN_ROUTES: AdminRoute[] = [
  ...ACCOUNT_ROUTES,
  ...STATEMENT_ROUTES,
  ...API_KEY_ROUTES,
  ...WEBHOOK_ROUTES,
  ...EVENT_STREAM_ROUTES,
  ...SIMULATOR_PIX_ROUTES,
  ...SIMULATOR_TRIGGER_ROUTES,
  ...LEDGER_ROUTES,
  ...PIX_ROUTE_ENDPOINTS,
  ...KINDS.flatMap((kind) => kind.adminRoutes),
  adminDocumentRoute(() => ADMIN_ROUTES),
];
