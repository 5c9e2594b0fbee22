// Charges for integration tests: bodies, creation, the simulated payer, and waiting for a final state.
import { randomBytes } from 'node:crypto';
import { CPF } from './fixtures.js';
import { eventually } from './eventually.js';
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

/** Polls GET /transactions/{id} until the status is `status`. */
export function waitForStatus(client: Client, id: string, status: string, timeoutMs = 20_000): Promise<any> {
  return eventually(
    async () => {
      const res = await client.get(`/transactions/${id}`);
      return res.status === 200 && res.body.data.status === status ? res.body.data : undefined;
    },
    timeoutMs,
    100,
  );
}
