// Admin routes of API keys: create (the only time the key is shown), list and revoke.
import type Koa from 'koa';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../accounts/api-keys.js';
import { getAccount } from '../../accounts/repository.js';
import type { Deps } from '../../deps.js';
import { ok } from '../../http/edge.js';
import { notFound } from '../../http/errors.js';
import { parseKeyGrant } from '../validation.js';
import { accountNotFound } from './accounts.js';
import type { AdminRoute } from './index.js';

/** A key without its secret (which is not stored). */
function keyJson(key: ApiKeyRecord) {
  return {
    id: key.id,
    accountId: key.accountId,
    prefix: key.prefix,
    permissions: key.permissions,
    allowedIps: key.allowedIps,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

async function create(ctx: Koa.Context, deps: Deps) {
  const grant = parseKeyGrant(ctx.request.body);
  const created = await createApiKey(deps.sql, ctx.params.id!, grant);
  if (!created) throw accountNotFound();
  deps.log.info({ accountId: created.record.accountId, keyId: created.record.id }, 'api key created');
  const { record } = created;
  ok(ctx, { id: record.id, key: created.key, permissions: record.permissions, allowedIps: record.allowedIps }, 201);
}

async function list(ctx: Koa.Context, deps: Deps) {
  const account = await getAccount(deps.sql, ctx.params.id!);
  if (!account) throw accountNotFound();
  ok(ctx, (await listApiKeys(deps.sql, account.id)).map(keyJson));
}

async function revoke(ctx: Koa.Context, deps: Deps) {
  const key = await revokeApiKey(deps.sql, ctx.params.id!);
  if (!key) throw notFound('Chave de API não encontrada');
  deps.log.info({ accountId: key.accountId, keyId: key.id }, 'api key revoked');
  ok(ctx, keyJson(key));
}

export const API_KEY_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/accounts/:id/api-keys', handler: create },
  { method: 'GET', path: '/accounts/:id/api-keys', handler: list },
  { method: 'DELETE', path: '/api-keys/:id', handler: revoke },
];
