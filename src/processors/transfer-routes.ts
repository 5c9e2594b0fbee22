// The transfer side of the Pix routes by name, beside registry.ts (the charge side): the account's
// `route` picks one. The simulator settles by itself after SIMULATOR_TRANSFER_DELAY_MS and tells
// the receiving side when a transfer pays one of its charges.
import type { Sql } from '../db/database.js';
import { SIMULATOR_ROUTE, type NetworkCharge } from './simulator.js';
import { SimulatorTransferRoute } from './simulator-transfers.js';
import { UnknownRoute } from './registry.js';
import type { TransferRoute } from './types.js';

export interface TransferRouteDeps {
  sql: Sql;
  simulatorTransferDelayMs: number;
  /** How the network reaches the receiver of a charge it saw paid. */
  onChargePaid: (charge: NetworkCharge) => Promise<void>;
}

const TRANSFER_ROUTES: Record<string, (deps: TransferRouteDeps) => TransferRoute> = {
  [SIMULATOR_ROUTE]: (deps) =>
    new SimulatorTransferRoute(deps.sql, { settleAfterMs: deps.simulatorTransferDelayMs, onChargePaid: deps.onChargePaid }),
};

export function transferRoute(deps: TransferRouteDeps, name: string): TransferRoute {
  const factory = TRANSFER_ROUTES[name];
  if (!factory) throw new UnknownRoute(`no Pix transfer route named ${name}`);
  return factory(deps);
}
