// Admin routes of accounts: create, show (with balance) and change settings.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Account } from '../../accounts/account.js';
import {
  accountHolding,
  CHARGE_LIMITS_CONSTRAINT,
  createAccount,
  getAccount,
  IDENTITY_CONSTRAINTS,
  patchAccount,
  type AccountPatch,
  type NewAccount,
} from '../../accounts/repository.js';
import type { Deps } from '../../runtime/deps.js';
import { normalizeDocument } from '../../domain/documents.js';
import { centsToReais, reaisToCents } from '../../domain/money.js';
import { BR_CODE_MAX_AMOUNT_CENTS } from '../../domain/brcode.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../../http/errors.js';
import { readBalance } from '../../ledger/balance.js';
import { routeNames } from '../../pix-routes/registry.js';
import { closed, documentField, emailField, idParam, percentField, reaisField, trimmedText } from '../../routing/admin-fields.js';
import { NOT_FOUND } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

/** The spec's defaults of a new account (POST /admin/accounts without them). */
const DEFAULT_LIMITS = { chargeMin: 1, chargeMax: 10000, transferMin: 3 };
/** A charge's code carries its amount: no limit above what a BR Code's amount field holds. */
const CHARGE_LIMIT_REAIS = centsToReais(BR_CODE_MAX_AMOUNT_CENTS);

const feeRule = (what: string, withDefaults: boolean) =>
  closed(
    {
      fixed: Type.Optional(reaisField(false, `Parte fixa da taxa de ${what}, em reais`)),
      percent: Type.Optional(percentField(`Percentual da taxa de ${what}`)),
    },
    withDefaults ? { default: { fixed: 0, percent: 0 } } : {},
  );

/** The settings an operator gives an account, at creation (with their defaults) or in a change. */
function settings(withDefaults: boolean) {
  const byDefault = (value: unknown) => (withDefaults ? { default: value } : {});
  return {
    status: Type.Optional(
      Type.Enum(['active', 'blocked'], { description: 'blocked: a conta não autentica nem opera', ...byDefault('active') }),
    ),
    kycStatus: Type.Optional(
      Type.Enum(['approved', 'pending'], {
        description: 'Verificação de identidade; operações financeiras exigem approved',
        ...byDefault('pending'),
      }),
    ),
    withdrawalsBlocked: Type.Optional(Type.Boolean({ description: 'true: transferências recusadas com 423', ...byDefault(false) })),
    pixReceivingEnabled: Type.Optional(Type.Boolean({ description: 'false: cobranças recusadas com 422', ...byDefault(true) })),
    fees: Type.Optional(
      closed(
        { charge: Type.Optional(feeRule('cobrança', withDefaults)), transfer: Type.Optional(feeRule('transferência', withDefaults)) },
        { description: 'Taxas em reais e percentual; o que não for informado fica como está (0 numa conta nova)' },
      ),
    ),
    limits: Type.Optional(
      closed(
        {
          chargeMin: Type.Optional(reaisField(true, 'Valor mínimo de uma cobrança, em reais', CHARGE_LIMIT_REAIS)),
          chargeMax: Type.Optional(
            reaisField(
              true,
              'Valor máximo de uma cobrança, em reais (não menor que chargeMin; até 9999999999.99, o que um BR Code leva)',
              CHARGE_LIMIT_REAIS,
            ),
          ),
          transferMin: Type.Optional(reaisField(true, 'Valor mínimo de uma transferência, em reais')),
        },
        { description: 'Limites em reais; o que não for informado fica como está', ...byDefault(DEFAULT_LIMITS) },
      ),
    ),
    route: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Rota Pix das operações da conta: simulator ou uma rota de PIX_ROUTES_FILE (GET /admin/routes)',
        ...byDefault('simulator'),
      }),
    ),
  };
}

const NewAccountBody = closed({
  name: trimmedText(200, 'Nome ou razão social'),
  document: documentField('CPF ou CNPJ (também alfanumérico), com ou sem máscara'),
  email: emailField('E-mail de contato'),
  allowDuplicate: Type.Optional(
    Type.Boolean({ default: false, description: 'true: cria a conta mesmo que outra já tenha este documento ou e-mail' }),
  ),
  ...settings(true),
});

const SETTINGS = settings(false);
const AccountPatchBody = closed(SETTINGS, { minProperties: 1 });

const Fee = closed({ fixed: Type.Number({ description: 'Reais' }), percent: Type.Number() });
const AccountSchema = closed(
  {
    id: Type.String({ description: 'acc_…' }),
    name: Type.String(),
    document: Type.String({ description: 'Sem máscara' }),
    email: Type.String(),
    kycStatus: Type.Enum(['approved', 'pending']),
    status: Type.Enum(['active', 'blocked']),
    withdrawalsBlocked: Type.Boolean(),
    pixReceivingEnabled: Type.Boolean(),
    fees: closed({ charge: Fee, transfer: Fee }),
    limits: closed({ chargeMin: Type.Number(), chargeMax: Type.Number(), transferMin: Type.Number() }),
    route: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Account' },
);
const AccountWithBalanceSchema = Type.Object(
  {
    ...AccountSchema.properties,
    balance: closed({
      currency: Type.Literal('BRL'),
      available: Type.Number(),
      reserved: Type.Number({ description: 'Transferências pendentes e valores retidos por MEDs' }),
    }),
  },
  { additionalProperties: false },
);

type FeeRuleInput = { fixed?: number; percent?: number } | undefined;
const feeRuleOf = (rule: FeeRuleInput) =>
  rule && { fixedCents: rule.fixed === undefined ? undefined : reaisToCents(rule.fixed)!, percent: rule.percent };
const cents = (reais: number | undefined) => (reais === undefined ? undefined : reaisToCents(reais)!);

/** The route names this engine knows are its configured routes; any other is a 400 naming the field. */
function knownRoute(deps: Deps, route: string | undefined): string | undefined {
  const names = routeNames(deps.config);
  if (route !== undefined && !names.includes(route))
    throw invalidRequest(`route deve ser uma rota configurada (${names.join(', ')})`, '/route');
  return route;
}

/** Validated settings as the repository takes them: centavos and percent; absent ones stay undefined. */
function settingsOf(deps: Deps, body: Partial<Static<typeof AccountPatchBody>>): AccountPatch {
  return {
    status: body.status,
    kycStatus: body.kycStatus,
    withdrawalsBlocked: body.withdrawalsBlocked,
    pixReceivingEnabled: body.pixReceivingEnabled,
    fees: body.fees && { charge: feeRuleOf(body.fees.charge), transfer: feeRuleOf(body.fees.transfer) },
    limits: body.limits && {
      chargeMinCents: cents(body.limits.chargeMin),
      chargeMaxCents: cents(body.limits.chargeMax),
      transferMinCents: cents(body.limits.transferMin),
    },
    route: knownRoute(deps, body.route),
  };
}

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
      throw invalidRequest('limits.chargeMin deve ser menor ou igual a limits.chargeMax', '/limits/chargeMin');
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
    throw new ApiError(
      409,
      'duplicate_account',
      `Já existe uma conta${holder ? ` (${holder})` : ''} com ${what}; para criar outra mesmo assim, envie allowDuplicate: true`,
    );
  }
}

async function create(ctx: Koa.Context, deps: Deps) {
  const body = ctx.request.body as Static<typeof NewAccountBody>;
  const input: NewAccount = {
    name: body.name.trim(),
    document: normalizeDocument(body.document),
    email: body.email.trim(),
    allowDuplicate: body.allowDuplicate ?? false,
    ...settingsOf(deps, body),
  };
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
  const changes = settingsOf(deps, ctx.request.body as Static<typeof AccountPatchBody>);
  const account = await orderedLimits(patchAccount(deps.sql, ctx.params.id!, changes));
  if (!account) throw accountNotFound();
  deps.log.info({ accountId: account.id, fields: Object.keys(ctx.request.body as object) }, 'account changed');
  ok(ctx, accountJson(account));
}

export const AccountParams = idParam('Identificador da conta (acc_…)');

export const ACCOUNT_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/accounts',
    summary: 'Cria uma conta (taxas, limites e rota opcionais; os omitidos ficam com os padrões)',
    operationId: 'createAccount',
    request: { body: NewAccountBody },
    response: AccountSchema,
    successStatuses: [201],
    errors: [{ status: 409, code: 'duplicate_account' }],
    handler: create,
  },
  {
    method: 'GET',
    path: '/accounts/:id',
    summary: 'Mostra uma conta, com suas configurações e seu saldo',
    operationId: 'getAccount',
    request: { params: AccountParams },
    response: AccountWithBalanceSchema,
    errors: [NOT_FOUND],
    handler: show,
  },
  {
    method: 'PATCH',
    path: '/accounts/:id',
    summary: `Altera configurações da conta (ao menos uma de: ${Object.keys(SETTINGS).join(', ')}); as demais ficam como estão`,
    operationId: 'patchAccount',
    request: { params: AccountParams, body: AccountPatchBody, optionalBody: true },
    response: AccountSchema,
    errors: [NOT_FOUND],
    handler: patch,
  },
];
