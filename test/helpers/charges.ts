// Charges for integration tests: bodies, creation, the simulated payer, and waiting for a final state.
import { randomBytes } from 'node:crypto';
import { CPF } from './fixtures.js';
import { poll } from './probe.js';
import { admin, type HttpResult, type Stack } from './stack.js';

type Client = {
  get: (path: string) => Promise<HttpResult>;
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<HttpResult>;
};

export const newKey = (label = 'k') => `${label}-${randomBytes(8).toString('hex')}`;

export function chargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 100,
    payer: { name: 'Maria da Silva', document: CPF.valid, email: 'maria@example.com' },
    description: 'Pedido 42',
    ...overrides,
  };
}

/** POST /transactions with a fresh Idempotency-Key unless one is given. */
export function postCharge(client: Client, body: unknown, key: string | null = newKey()): Promise<HttpResult> {
  return client.post('/transactions', body, key === null ? {} : { 'Idempotency-Key': key });
}

/** Creates a charge and fails the test unless it answered 201. */
export async function createCharge(client: Client, overrides: Record<string, unknown> = {}, key = newKey()): Promise<any> {
  const res = await postCharge(client, chargeBody(overrides), key);
  if (res.status !== 201) throw new Error(`charge creation answered ${res.status}: ${res.text}`);
  return res.body.data;
}

export function payCharge(stack: Stack, id: string, payer?: Record<string, string>): Promise<HttpResult> {
  return admin(stack, 'POST', `/simulator/charges/${id}/pay`, payer ? { payer } : undefined);
}

/** Where a transaction's status can still go: the engine settles only a pending one, and refunds an approved charge. */
const LATER_STATUSES: Record<string, readonly string[]> = {
  pending: ['approved', 'failed', 'cancelled', 'refunded'],
  approved: ['refunded'],
};

/**
 * Reads a transaction (GET /transactions/{id}) as `until` for poll(): its data once its status is
 * `status`, undefined while it may still get there, and an error at once when it never will.
 */
export function hasStatus(status: string): (res: HttpResult) => any {
  return (res) => {
    const data = res.body.data;
    if (data.status === status) return data;
    if (LATER_STATUSES[data.status]?.includes(status)) return undefined;
    throw new Error(`transaction ${data.id} is ${data.status}, which never becomes ${status}: ${res.text}`);
  };
}

/**
 * Polls GET /transactions/{id} until the status is `status`. Any answer but a 200 fails at once, unless
 * `notYet` names it (404 for a transaction whose creation answered 202: the engine may not have stored it yet).
 */
export function waitForStatus(
  client: Client,
  id: string,
  status: string,
  timeoutMs = 20_000,
  notYet: readonly number[] = [],
): Promise<any> {
  return poll(() => client.get(`/transactions/${id}`), hasStatus(status), { notYet, timeoutMs });
}
