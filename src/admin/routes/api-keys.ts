// Admin routes of API keys: create (the only time the key is shown), list and revoke.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { createApiKey, listApiKeys, revokeApiKey } from '../../accounts/api-keys.js';
import { getAccount } from '../../accounts/repository.js';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { notFound } from '../../http/errors.js';
import { normalizeAllowlistEntry } from '../../accounts/ip-allowlist.js';
import { PERMISSIONS } from '../../accounts/permissions.js';
import { closed, idParam, ipOrCidr } from '../../routing/admin-fields.js';
import { withIsoDates } from '../iso-dates.js';
import { AccountParams, accountNotFound } from './accounts.js';
import { NOT_FOUND } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const MAX_ALLOWED_IPS = 100;

const KeyGrantBody = closed({
  permissions: Type.Array(Type.Enum([...PERMISSIONS]), { minItems: 1, description: 'Permissões da chave (repetições são ignoradas)' }),
  allowedIps: Type.Optional(
    Type.Array(ipOrCidr, {
      maxItems: MAX_ALLOWED_IPS,
      default: [],
      description: 'IPs ou faixas CIDR de onde a chave pode ser usada; vazia: qualquer origem',
    }),
  ),
});

const ApiKeySchema = closed(
  {
    id: Type.String({ description: 'key_…' }),
    accountId: Type.String(),
    prefix: Type.String({ description: 'O começo da chave, para reconhecê-la' }),
    permissions: Type.Array(Type.Enum([...PERMISSIONS])),
    allowedIps: Type.Array(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ApiKey' },
);

const CreatedApiKeySchema = closed({
  id: Type.String(),
  key: Type.String({ description: 'A chave inteira (pix_live_…); mostrada só nesta resposta' }),
  permissions: Type.Array(Type.Enum([...PERMISSIONS])),
  allowedIps: Type.Array(Type.String()),
});

async function create(ctx: Koa.Context, deps: Deps) {
  const body = ctx.request.body as Static<typeof KeyGrantBody>;
  const grant = {
    permissions: [...new Set(body.permissions)],
    allowedIps: [...new Set((body.allowedIps ?? []).map((entry) => normalizeAllowlistEntry(entry)!))],
  };
  const created = await createApiKey(deps.sql, ctx.params.id!, grant);
  if (!created) throw accountNotFound();
  deps.log.info({ accountId: created.record.accountId, keyId: created.record.id }, 'api key created');
  const { record } = created;
  ok(ctx, { id: record.id, key: created.key, permissions: record.permissions, allowedIps: record.allowedIps }, 201);
}

async function list(ctx: Koa.Context, deps: Deps) {
  const account = await getAccount(deps.sql, ctx.params.id!);
  if (!account) throw accountNotFound();
  ok(ctx, (await listApiKeys(deps.sql, account.id)).map(withIsoDates));
}

async function revoke(ctx: Koa.Context, deps: Deps) {
  const key = await revokeApiKey(deps.sql, ctx.params.id!);
  if (!key) throw notFound('Chave de API não encontrada');
  deps.log.info({ accountId: key.accountId, keyId: key.id }, 'api key revoked');
  ok(ctx, withIsoDates(key));
}

export const API_KEY_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/accounts/:id/api-keys',
    summary: 'Cria uma chave de API para a conta; a chave aparece só nesta resposta',
    operationId: 'createApiKey',
    request: { params: AccountParams, body: KeyGrantBody },
    response: CreatedApiKeySchema,
    successStatuses: [201],
    errors: [NOT_FOUND],
    handler: create,
  },
  {
    method: 'GET',
    path: '/accounts/:id/api-keys',
    summary: 'Lista as chaves de API da conta (sem segredo)',
    operationId: 'listApiKeys',
    request: { params: AccountParams },
    response: Type.Array(ApiKeySchema),
    errors: [NOT_FOUND],
    handler: list,
  },
  {
    method: 'DELETE',
    path: '/api-keys/:id',
    summary: 'Revoga uma chave de API (vale já na próxima requisição); repetir mantém a primeira revogação',
    operationId: 'revokeApiKey',
    request: { params: idParam('Identificador da chave (key_…)') },
    response: ApiKeySchema,
    errors: [NOT_FOUND],
    handler: revoke,
  },
];
