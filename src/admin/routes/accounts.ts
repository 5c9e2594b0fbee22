// Admin routes of accounts: create, show (with balance) and change settings.
import type Koa from 'koa';
import type { Account } from '../../accounts/account.js';
import {
  accountHolding,
  CHARGE_LIMITS_CONSTRAINT,
  createAccount,
  getAccount,
  IDENTITY_CONSTRAINTS,
  patchAccount,
  type NewAccount,
} from '../../accounts/repository.js';
import type { Deps } from '../../deps.js';
import { centsToReais } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../../http/errors.js';
import { readBalance } from '../../ledger/balance.js';
import { parseAccountPatch, parseNewAccount } from '../validation.js';
import type { AdminRoute } from './index.js';

/** The account as operators see it: reais and percent. */
export function accountJson(account: Account) {
  const fee = (rule: Account['fees']['charge']) => ({ fixed: centsToReais(rule.fixedCents), percent: rule.percent });
  return {
    id: account.id,
    name: account.name,
    document: account.document,
    email: account.email,
    kycStatus: account.kycStatus,
    status: account.status,
    withdrawalsBlocked: account.withdrawalsBlocked,
    pixReceivingEnabled: account.pixReceivingEnabled,
    fees: { charge: fee(account.fees.charge), transfer: fee(account.fees.transfer) },
    limits: {
      chargeMin: centsToReais(account.limits.chargeMinCents),
      chargeMax: centsToReais(account.limits.chargeMaxCents),
      transferMin: centsToReais(account.limits.transferMinCents),
    },
    route: account.route,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}

export const accountNotFound = () => notFound('Conta não encontrada');

const constraintOf = (err: unknown) => (err as { constraint_name?: string }).constraint_name;

/** The database keeps chargeMin ≤ chargeMax whichever one a request changes; its refusal is a 400. */
async function orderedLimits<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (constraintOf(err) === CHARGE_LIMITS_CONSTRAINT) {
      throw invalidRequest('limits.chargeMin deve ser menor ou igual a limits.chargeMax');
    }
    throw err;
  }
}

/** The database keeps one account per document and per e-mail unless the operator allowed a duplicate; its refusal is a 409. */
async function uniqueIdentity<T>(deps: Deps, input: NewAccount, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    const field = IDENTITY_CONSTRAINTS[constraintOf(err) ?? ''];
    if (!field) throw err;
    const holder = await accountHolding(deps.sql, field, input[field]);
    const what = field === 'document' ? 'este documento' : 'este e-mail';
    throw new ApiError(409, 'duplicate_account', `Já existe uma conta${holder ? ` (${holder})` : ''} com ${what}; para criar outra mesmo assim, envie allowDuplicate: true`);
  }
}

async function create(ctx: Koa.Context, deps: Deps) {
  const input = parseNewAccount(ctx.request.body);
  const account = await uniqueIdentity(deps, input, orderedLimits(createAccount(deps.sql, input)));
  deps.log.info({ accountId: account.id }, 'account created');
  ok(ctx, accountJson(account), 201);
}

async function show(ctx: Koa.Context, deps: Deps) {
  const account = await getAccount(deps.sql, ctx.params.id!);
  if (!account) throw accountNotFound();
  const balance = await readBalance(deps.sql, account.id);
  ok(ctx, {
    ...accountJson(account),
    balance: {
      currency: 'BRL',
      available: centsToReais(balance.availableCents),
      // The public balance's `reserved` includes the amounts retained by open MEDs.
      reserved: centsToReais(balance.reservedCents + balance.retainedCents),
    },
  });
}

async function patch(ctx: Koa.Context, deps: Deps) {
  const changes = parseAccountPatch(ctx.request.body);
  const account = await orderedLimits(patchAccount(deps.sql, ctx.params.id!, changes));
  if (!account) throw accountNotFound();
  deps.log.info({ accountId: account.id, fields: Object.keys(ctx.request.body as object) }, 'account changed');
  ok(ctx, accountJson(account));
}

export const ACCOUNT_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/accounts', handler: create },
  { method: 'GET', path: '/accounts/:id', handler: show },
  { method: 'PATCH', path: '/accounts/:id', handler: patch },
];
