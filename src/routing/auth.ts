// Who is calling: the API key in `Authorization: Bearer <key>`, checked against PostgreSQL on every
// request, then the key's IP allow-list and the account's status; and what the caller may do.
// Independent of Koa: the API guard and the MCP server both use it.
import type { Caller } from '../accounts/account.js';
import { findKeyHolder, hashApiKey, isWellFormedApiKey } from '../accounts/api-keys.js';
import { isIpAllowed } from '../accounts/ip-allowlist.js';
import type { Deps } from '../runtime/deps.js';
import { ApiError } from '../http/errors.js';
import { accountUnavailable, kycRequired } from '../domain/refusal.js';
import type { Permission } from '../accounts/permissions.js';

export interface AuthRequest {
  /** The `Authorization` header as received, if any. */
  authorization: string | undefined;
  /** The caller's IP address (socket address, or leftmost X-Forwarded-For behind a trusted proxy). */
  ip: string;
}

const invalidApiKey = (message: string) => new ApiError(401, 'invalid_api_key', message);

function bearerKey(authorization: string | undefined): string {
  if (!authorization?.trim()) throw invalidApiKey('Chave de API ausente: envie o cabeçalho Authorization: Bearer <chave>');
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  if (!match || !isWellFormedApiKey(match[1]!)) throw invalidApiKey('Chave de API malformada: use Authorization: Bearer <chave>');
  return match[1]!;
}

/**
 * 401 invalid_api_key (missing, malformed, unknown or revoked: unknown and revoked answer alike),
 * then 403 ip_not_allowed. Nothing is cached, so a revocation applies to the very next request,
 * whichever process serves it.
 */
export async function identifyCaller(deps: Pick<Deps, 'sql'>, request: AuthRequest): Promise<Caller> {
  const keyHash = hashApiKey(bearerKey(request.authorization));
  const holder = await findKeyHolder(deps.sql, keyHash);
  if (!holder || holder.key.revokedAt !== null) throw invalidApiKey('Chave de API inválida ou revogada');
  if (!isIpAllowed(request.ip, holder.key.allowedIps)) {
    throw new ApiError(403, 'ip_not_allowed', `O IP de origem ${request.ip} não está autorizado para esta chave de API`);
  }
  return { account: holder.account, keyId: holder.key.id, keyHash, permissions: holder.key.permissions };
}

/** identifyCaller, then 403 account_unavailable when the key's account is blocked. */
export async function authenticateRequest(deps: Pick<Deps, 'sql'>, request: AuthRequest): Promise<Caller> {
  const caller = await identifyCaller(deps, request);
  if (caller.account.status !== 'active') throw accountUnavailable();
  return caller;
}

export function permissionRefusal(caller: Caller, permission: Permission): ApiError | null {
  return caller.permissions.includes(permission)
    ? null
    : new ApiError(403, 'permission_denied', `A chave de API não tem a permissão ${permission}`);
}

/** 403 permission_denied naming the missing permission, then 403 kyc_required for financial operations. */
export function authorize(caller: Caller, requirement: { permission: Permission; financial: boolean }): void {
  const refusal = permissionRefusal(caller, requirement.permission);
  if (refusal) throw refusal;
  if (requirement.financial && caller.account.kycStatus !== 'approved') throw kycRequired();
}
