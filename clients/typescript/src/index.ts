// A typed client of the Pix payments engine's public API, its types generated from the served
// OpenAPI document (src/api.d.ts, `npm run generate:client` in the engine's repository).
import type { components, operations } from './api.js';

export type { components, operations, paths, webhooks } from './api.js';
export { constructWebhookEvent, verifyWebhook, WebhookSignatureError, type WebhookEvent, type WebhookEventName } from './webhooks.js';

type Schemas = components['schemas'];
export type Transaction = Schemas['Transaction'];
export type Med = Schemas['Med'];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of every 2xx answer of an operation. */
type SuccessOf<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
/** The request body of an operation (fields with defaults optional). */
export type RequestBodyOf<K extends keyof operations> = operations[K] extends { requestBody: infer B } ? JsonOf<B> : never;
/** The query parameters of an operation. */
export type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export type CreateChargeBody = RequestBodyOf<'createCharge'>;
export type CreateTransferBody = RequestBodyOf<'createTransfer'>;

/** The error envelope of a non-2xx answer, thrown by every call. */
export class PixApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'PixApiError';
  }
}

export interface ClientOptions {
  /** The API's base address, ending with /v1 (`http://localhost:3000/v1`). */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | undefined>;

export function createPixClient(options: ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call<K extends keyof operations>(
    _operation: K,
    method: 'GET' | 'POST',
    path: string,
    init: { query?: Query; body?: unknown; idempotencyKey?: string } = {},
  ): Promise<SuccessOf<operations[K]>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(init.query ?? {})) if (value !== undefined) search.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.idempotencyKey !== undefined) headers['idempotency-key'] = init.idempotencyKey;
    const res = await doFetch(`${base}${path}${search.size > 0 ? `?${search}` : ''}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const payload = (await res.json().catch(() => null)) as {
      success?: boolean;
      error?: { code: string; message: string; param?: string };
      requestId?: string;
    } | null;
    if (!res.ok || payload?.success !== true) {
      const error = payload?.error;
      throw new PixApiError(res.status, error?.code ?? 'unknown', error?.message ?? `HTTP ${res.status}`, error?.param, payload?.requestId);
    }
    return payload as SuccessOf<operations[K]>;
  }

  const id = (value: string) => encodeURIComponent(value);
  return {
    /** POST /transactions: a Pix charge (201 created, 200 idempotent repeat, 202 still being accepted). */
    createCharge: (body: CreateChargeBody, opts: { idempotencyKey?: string } = {}) =>
      call('createCharge', 'POST', '/transactions', { body, ...opts }),
    /** POST /transfers: a Pix transfer out of the available balance. */
    createTransfer: (body: CreateTransferBody, opts: { idempotencyKey?: string } = {}) =>
      call('createTransfer', 'POST', '/transfers', { body, ...opts }),
    /** GET /transactions/{id}: by id or idempotency key. */
    getTransaction: (transactionId: string, query: QueryOf<'getTransaction'> = {}) =>
      call('getTransaction', 'GET', `/transactions/${id(transactionId)}`, { query }),
    /** GET /transactions: a page of the account's transactions. */
    listTransactions: (query: QueryOf<'listTransactions'> = {}) => call('listTransactions', 'GET', '/transactions', { query }),
    /** GET /balance */
    getBalance: () => call('getBalance', 'GET', '/balance'),
    /** GET /statement: the available balance over [from, to), entry by entry. */
    getStatement: (query: QueryOf<'getStatement'>) => call('getStatement', 'GET', '/statement', { query }),
    /** GET /meds: a page of the account's disputes. */
    listMeds: (query: QueryOf<'listMeds'> = {}) => call('listMeds', 'GET', '/meds', { query }),
    /** GET /meds/{id} */
    getMed: (medId: string) => call('getMed', 'GET', `/meds/${id(medId)}`),
  };
}

export type PixClient = ReturnType<typeof createPixClient>;
