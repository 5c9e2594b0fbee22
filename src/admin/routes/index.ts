import type Koa from 'koa';
import type { Deps } from '../../deps.js';

export interface AdminRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Koa path under /admin. */
  path: string;
  handler: (ctx: Koa.Context, deps: Deps) => Promise<void>;
}

export const ADMIN_ROUTES: AdminRoute[] = [];
