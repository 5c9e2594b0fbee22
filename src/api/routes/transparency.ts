// GET /v1/transparency: the platform's public indicators, without authentication and without
// touching any key's quota (only the per-IP protection applies). Read from the platform's counters
// (migration 110: 16 rows that triggers keep with every write of transactions and accounts) and kept
// for a few seconds, so a burst of calls costs one query; 503 when the database cannot answer.
import Type, { type Static } from 'typebox';
import { TIMED_OUT, within } from '../../async/within.js';
import type { Sql } from '../../db/database.js';
import { centsToReais } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { ApiError } from '../../http/errors.js';
import type { RouteSpec } from '../../routing/public-route.js';
import { readPlatformCounts } from '../../transactions/platform-counts.js';

export const PublicIndicatorsSchema = Type.Object(
  {
    transacoesConcluidas: Type.Integer({
      minimum: 0,
      description: 'Approved transactions (charges paid and transfers sent) of the platform',
    }),
    contasCriadas: Type.Integer({ minimum: 0, description: 'Accounts created' }),
    volumeMovimentado: Type.Number({ minimum: 0, description: 'Sum of the amounts of the approved transactions, in reais' }),
    moeda: Type.Literal('BRL'),
    atualizadoEm: Type.String({ format: 'date-time', description: 'When the figures were computed (they are kept for up to 5 seconds)' }),
  },
  { additionalProperties: false, $id: 'PublicIndicators' },
);

type Indicators = Static<typeof PublicIndicatorsSchema>;

export const INDICATORS_TTL_MS = 5_000;
const QUERY_TIMEOUT_MS = 3_000;

async function computeIndicators(sql: Sql): Promise<Indicators> {
  const counts = await readPlatformCounts(sql);
  return {
    transacoesConcluidas: counts.approvedTransactions,
    contasCriadas: counts.accounts,
    volumeMovimentado: centsToReais(counts.approvedVolumeCents),
    moeda: 'BRL',
    atualizadoEm: new Date().toISOString(),
  };
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  const result = await within(work, ms);
  if (result === TIMED_OUT) throw new Error(`no answer in ${ms} ms`);
  return result;
}

/** The last figures and when they expire; concurrent callers share one query in flight. A failure is not kept. */
interface IndicatorsCache {
  value?: { indicators: Indicators; expiresAt: number };
  inFlight?: Promise<Indicators>;
}

const caches = new WeakMap<Sql, IndicatorsCache>();

export function currentIndicators(sql: Sql): Promise<Indicators> {
  let cache = caches.get(sql);
  if (!cache) caches.set(sql, (cache = {}));
  if (cache.value && cache.value.expiresAt > Date.now()) return Promise.resolve(cache.value.indicators);
  const entry = cache;
  entry.inFlight ??= withTimeout(computeIndicators(sql), QUERY_TIMEOUT_MS)
    .then((indicators) => {
      entry.value = { indicators, expiresAt: Date.now() + INDICATORS_TTL_MS };
      return indicators;
    })
    .finally(() => (entry.inFlight = undefined));
  return entry.inFlight;
}

export const transparencyRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/transparency',
    permission: null,
    financial: false,
    summary: 'Indicadores públicos da plataforma (sem autenticação)',
    operationId: 'getTransparency',
    response: PublicIndicatorsSchema,
    successStatuses: [200],
    handler: async (ctx, deps) => {
      let indicators: Indicators;
      try {
        indicators = await currentIndicators(deps.sql);
      } catch (err) {
        deps.log.warn({ err }, 'transparency indicators unavailable');
        throw new ApiError(503, 'internal_error', 'Indicadores temporariamente indisponíveis; tente novamente em instantes');
      }
      ok(ctx, indicators);
    },
  },
];
