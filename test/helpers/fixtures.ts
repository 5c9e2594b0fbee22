// Accounts and keys for integration tests, made through the admin API exactly as an operator would.
import { generateCnpj } from '@brazilian-utils/brazilian-utils';
import { PERMISSIONS, type Permission } from '../../src/accounts/permissions.js';
import { admin, http, type HttpResult, type Stack } from './stack.js';

/** Valid test documents (check digits correct). */
export const CPF = { valid: '529.982.247-25', validDigits: '52998224725', other: '11144477735', invalid: '529.982.247-24' };
export const CNPJ = { valid: '11.222.333/0001-81', validDigits: '11222333000181', alphanumeric: '12.ABC.345/01DE-35' };

let counter = 0;

export interface AccountInput {
  name?: string;
  document?: string;
  email?: string;
  kycStatus?: 'approved' | 'pending';
  fees?: { charge?: { fixed: number; percent: number }; transfer?: { fixed: number; percent: number } };
  route?: string;
}

export async function createAccount(stack: Stack, input: AccountInput = {}): Promise<any> {
  counter += 1;
  const res = await admin(stack, 'POST', '/accounts', {
    name: `Loja Teste ${counter}`,
    document: generateCnpj(), // one account per document unless allowed (migration 071)
    email: `loja${counter}.${Date.now()}@example.com`,
    kycStatus: 'approved',
    ...input,
  });
  if (res.status !== 201) throw new Error(`create account failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function createKey(
  stack: Stack,
  accountId: string,
  permissions: readonly Permission[] = PERMISSIONS,
  allowedIps?: string[],
): Promise<{ id: string; key: string }> {
  const res = await admin(stack, 'POST', `/accounts/${accountId}/api-keys`, { permissions, ...(allowedIps ? { allowedIps } : {}) });
  if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, key: res.body.data.key };
}

export async function patchAccount(stack: Stack, accountId: string, patch: Record<string, unknown>): Promise<any> {
  const res = await admin(stack, 'PATCH', `/accounts/${accountId}`, patch);
  if (res.status !== 200) throw new Error(`patch account failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** A verified account with a key holding every permission, and a client bound to that key. */
export async function createMerchant(stack: Stack, input: AccountInput = {}) {
  const account = await createAccount(stack, input);
  const key = await createKey(stack, account.id);
  return { account, key: key.key, keyId: key.id, client: client(stack, key.key) };
}

export function client(stack: Stack, key: string) {
  return {
    get: <T = any>(path: string): Promise<HttpResult<T>> => http<T>('GET', `${stack.baseUrl}${path}`, { token: key }),
    post: <T = any>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> =>
      http<T>('POST', `${stack.baseUrl}${path}`, { token: key, body, headers }),
  };
}
