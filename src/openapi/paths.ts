// How the route table's Koa paths and the configured public address appear in the self-description.
import type { Config } from '../config/config.js';

/** Koa path under /v1 (`/transactions/:id`) in the spec's style (`/transactions/{id}`). */
export function specPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** Names of the path parameters of a Koa path, in order. */
export function pathParameterNames(koaPath: string): string[] {
  return [...koaPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/**
 * The service base address, which ends with the version prefix: PUBLIC_BASE_URL (with `/v1` added
 * when it is not already there) or, without it, the relative `/v1`.
 */
export function apiBaseUrl(config: Pick<Config, 'publicBaseUrl'>): string {
  if (config.publicBaseUrl === null) return '/v1';
  const trimmed = config.publicBaseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? trimmed : `${trimmed}/v1`;
}

/** Where the MCP server listens, beside (not under) the versioned API. */
export const MCP_PATH = '/mcp';

/** The MCP address for the same public origin as `apiBaseUrl`. */
export function mcpUrl(config: Pick<Config, 'publicBaseUrl'>): string {
  return apiBaseUrl(config).replace(/\/v1$/, '') + MCP_PATH;
}
