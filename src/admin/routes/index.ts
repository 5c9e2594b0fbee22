import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { ACCOUNT_ROUTES } from './accounts.js';
import { API_KEY_ROUTES } from './api-keys.js';
import { LEDGER_ROUTES } from './ledger.js';
import { MED_ROUTES } from './meds.js';
import { SIMULATOR_CHARGE_ROUTES } from './simulator-charges.js';
import { SIMULATOR_TRANSFER_ROUTES } from './simulator-transfers.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Koa path under /admin. */
  path: string;
  handler: (ctx: Koa.Context, deps: Deps) => Promise<void>;
}

export const ADMIN_ROUTES: AdminRoute[] = [
  ...ACCOUNT_ROUTES,
  ...API_KEY_ROUTES,
  ...WEBHOOK_ROUTES,
  ...SIMULATOR_CHARGE_ROUTES,
  ...SIMULATOR_TRANSFER_ROUTES,
  ...MED_ROUTES,
  ...LEDGER_ROUTES,
];
