// Pix routes by name: the account's `route` (set only by the administration) picks one, for its
// charges and for its transfers. The simulator's transfer side settles by itself after
// SIMULATOR_TRANSFER_DELAY_MS and tells the receiving side when a transfer pays one of its charges.
// A name no route answers to is a refusal that retrying cannot change (RouteRefused).
import type { Sql } from '../db/database.js';
import { SIMULATOR_ROUTE, SimulatorChargeRoute, type NetworkCharge } from './simulator.js';
import { SimulatorTransferRoute } from './simulator-transfers.js';
import { RouteRefused, type ChargeRoute, type TransferRoute } from './types.js';

export interface ChargeRouteDeps {
  sql: Sql;
}

export interface TransferRouteDeps {
  sql: Sql;
  simulatorTransferDelayMs: number;
  /** How the simulated Pix network reaches the receiver of a charge it saw paid. */
  onChargePaid: (charge: NetworkCharge) => Promise<void>;
}

const CHARGE_ROUTES: Record<string, (deps: ChargeRouteDeps) => ChargeRoute> = {
  [SIMULATOR_ROUTE]: (deps) => new SimulatorChargeRoute(deps.sql),
};

const TRANSFER_ROUTES: Record<string, (deps: TransferRouteDeps) => TransferRoute> = {
  [SIMULATOR_ROUTE]: (deps) =>
    new SimulatorTransferRoute(deps.sql, { settleAfterMs: deps.simulatorTransferDelayMs, onChargePaid: deps.onChargePaid }),
};

export const ROUTE_NAMES = Object.keys(CHARGE_ROUTES);

export function chargeRoute(deps: ChargeRouteDeps, name: string): ChargeRoute {
  const route = CHARGE_ROUTES[name];
  if (!route) throw new RouteRefused(`no Pix route named ${name}`);
  return route(deps);
}

export function transferRoute(deps: TransferRouteDeps, name: string): TransferRoute {
  const route = TRANSFER_ROUTES[name];
  if (!route) throw new RouteRefused(`no Pix transfer route named ${name}`);
  return route(deps);
}
