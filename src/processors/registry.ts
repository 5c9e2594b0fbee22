// Pix routes by name: the account's `route` (set only by the administration) picks one.
import type { Sql } from '../db/database.js';
import { SIMULATOR_ROUTE, SimulatorChargeRoute } from './simulator.js';
import type { ChargeRoute } from './types.js';

export interface RouteDeps {
  sql: Sql;
}

const CHARGE_ROUTES: Record<string, (deps: RouteDeps) => ChargeRoute> = {
  [SIMULATOR_ROUTE]: (deps) => new SimulatorChargeRoute(deps.sql),
};

export const ROUTE_NAMES = Object.keys(CHARGE_ROUTES);

export class UnknownRoute extends Error {
  override readonly name = 'UnknownRoute';
}

export function chargeRoute(deps: RouteDeps, name: string): ChargeRoute {
  const factory = CHARGE_ROUTES[name];
  if (!factory) throw new UnknownRoute(`no Pix route named ${name}`);
  return factory(deps);
}
