// GET /v1/balance: the account's balance in reais. The public `reserved` adds the amounts retained
// by open MEDs to the amounts reserved for pending transfers: neither can be spent.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { centsToReais } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { readBalance } from '../../ledger/balance.js';
import type { RouteSpec } from '../../routing/public-route.js';

export const BalanceSchema = Type.Object(
  {
    currency: Type.Literal('BRL'),
    available: Type.Number({ description: 'Reais disponíveis para transferências' }),
    reserved: Type.Number({ description: 'Reais reservados: transferências pendentes e valores retidos por MEDs em análise' }),
  },
  { description: 'Saldo da conta' },
);

export const balanceRoute: RouteSpec = {
  method: 'GET',
  path: '/balance',
  permission: 'balance:read',
  financial: true,
  summary: 'Saldo da conta (disponível e reservado)',
  operationId: 'getBalance',
  response: BalanceSchema,
  successStatuses: [200],
  errors: [],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const balance = await readBalance(deps.sql, caller.account.id);
    ok(ctx, {
      currency: 'BRL',
      available: centsToReais(balance.availableCents),
      reserved: centsToReais(balance.reservedCents + balance.retainedCents),
    });
  },
};
