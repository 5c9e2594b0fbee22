// POST /admin/simulator/trigger (`pixctl trigger <event> --account <accId>`): makes an event happen for
// real on an account of the simulator route (src/admin/simulator-trigger.ts), so that its webhook
// endpoints and `pixctl listen` receive it. Answers 201 once the event happened.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { getAccount } from '../../accounts/repository.js';
import { ok } from '../../http/edge.js';
import { operationRefused } from '../../http/errors.js';
import { SIMULATOR_ROUTE } from '../../pix-routes/simulator.js';
import { trigger, TriggerRefused } from '../simulator-trigger.js';
import { TRIGGER_EVENTS } from '../trigger-events.js';
import type { Deps } from '../../runtime/deps.js';
import { closed } from '../../routing/admin-fields.js';
import { accountNotFound } from './accounts.js';
import { NOT_FOUND, OPERATION_REFUSED } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const TriggerBody = closed({
  event: Type.Enum([...TRIGGER_EVENTS], { description: 'O evento a produzir' }),
  accountId: Type.String({ minLength: 1, description: 'A conta (acc_…), da rota simulator' }),
});

const TriggeredSchema = Type.Object(
  {
    event: Type.Enum([...TRIGGER_EVENTS]),
    accountId: Type.String(),
    transactionId: Type.String({ description: 'A transação criada para o evento (txn_… ou out_…)' }),
    objectId: Type.String({ description: 'O objeto do evento: a transação, a devolução (rfd_…) ou a MED (med_…)' }),
  },
  { additionalProperties: false },
);

async function handle(ctx: Koa.Context, deps: Deps) {
  const { event, accountId } = ctx.request.body as Static<typeof TriggerBody>;
  const account = await getAccount(deps.sql, accountId);
  if (!account) throw accountNotFound();
  if (account.route !== SIMULATOR_ROUTE) {
    throw operationRefused(`A conta usa a rota ${account.route}; eventos só podem ser produzidos na rota ${SIMULATOR_ROUTE}`);
  }
  try {
    ok(ctx, await trigger(deps, account, event, ctx.state.requestId as string), 201);
  } catch (err) {
    if (err instanceof TriggerRefused) throw operationRefused(err.message);
    throw err;
  }
}

export const SIMULATOR_TRIGGER_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/trigger',
    summary:
      'Simulador: produz de verdade um evento numa conta da rota simulator (cobrança paga, expirada, transferência que falha, MED, devolução), como faria um integrador com a rede simulada; os webhooks e o pixctl listen o recebem',
    operationId: 'triggerSimulatorEvent',
    request: { body: TriggerBody },
    response: TriggeredSchema,
    successStatuses: [201],
    errors: [NOT_FOUND, OPERATION_REFUSED],
    handler: handle,
  },
];
