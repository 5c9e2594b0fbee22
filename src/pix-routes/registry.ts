// Pix routes by name: the account's `route` (set only by the administration) picks one, for its
// charges and for its transfers; a charge's refunds go back through the charge's route. `simulator`
// is built in; the routes file (PIX_ROUTES_FILE) adds PSP routes of type `bcb-api-pix`, whose refunds
// are API Pix devoluções. The simulator's transfer side settles by itself after
// SIMULATOR_TRANSFER_DELAY_MS and tells the receiving side when a transfer pays one of its charges.
// A PSP route is one client per process (its connections and its OAuth token are shared by every
// call). A name no route answers to is a refusal that retrying cannot change (RouteRefused).
import type { Config } from '../config/config.js';
import type { Sql } from '../db/database.js';
import type { Logger } from '../runtime/log.js';
import { BcbApiPixChargeRoute } from './bcb-api-pix/charges.js';
import { PspClient } from './bcb-api-pix/client.js';
import { EfiTransferRoute } from './bcb-api-pix/efi-send.js';
import { BcbApiPixRecords } from './bcb-api-pix/records.js';
import { BcbApiPixRefundRoute } from './bcb-api-pix/refunds.js';
import { BcbApiPixRecurrenceRoute } from './bcb-api-pix/recurrences.js';
import type { BcbApiPixRouteConfig } from '../config/routes-file.js';
import { SIMULATOR_ROUTE, SimulatorChargeRoute, type NetworkCharge } from './simulator.js';
import { SimulatorTransferRoute } from './simulator-transfers.js';
import { SimulatorRefundRoute } from './simulator-refunds.js';
import type { RefundRoute } from './refund-route.js';
import type { RouteRecords } from './route-records.js';
import { SimulatorRecords } from './simulator-records.js';
import { RouteRefused, type ChargeRoute, type RecurrenceRoute, type TransferRoute } from './types.js';

/** What the routes are built from: the configured PSP routes and the charge validity they are told. */
export type RouteSettings = Pick<Config, 'pixRoutes' | 'chargeTtlSeconds'>;

export interface ChargeRouteDeps {
  sql: Sql;
  config: RouteSettings;
  log: Logger;
}

export interface TransferRouteDeps extends ChargeRouteDeps {
  simulatorTransferDelayMs: number;
  /** How the simulated Pix network reaches the receiver of a charge it saw paid. */
  onChargePaid: (charge: NetworkCharge) => Promise<void>;
}

interface PspRoute {
  client: PspClient;
  charges: BcbApiPixChargeRoute;
  transfers: EfiTransferRoute | null;
  refunds: BcbApiPixRefundRoute;
  records: BcbApiPixRecords;
  /** Null when the route has no receiverAccount: it takes no recurrences. */
  recurrences: BcbApiPixRecurrenceRoute | null;
}

const PSP_ROUTES = new WeakMap<BcbApiPixRouteConfig, PspRoute>();

function pspRouteOf(route: BcbApiPixRouteConfig, config: RouteSettings, log: Logger): PspRoute {
  let built = PSP_ROUTES.get(route);
  if (!built) {
    const client = new PspClient(route);
    built = {
      client,
      charges: new BcbApiPixChargeRoute(client, { chargeTtlSeconds: config.chargeTtlSeconds, log }),
      transfers: route.send ? new EfiTransferRoute(client, { sendBaseUrl: route.send.baseUrl }) : null,
      refunds: new BcbApiPixRefundRoute(client, {}),
      records: new BcbApiPixRecords(client, { sendBaseUrl: route.send?.baseUrl ?? null }),
      recurrences: route.receiverAccount ? new BcbApiPixRecurrenceRoute(client, {}) : null,
    };
    PSP_ROUTES.set(route, built);
  }
  return built;
}

function pspRoute(deps: ChargeRouteDeps, name: string): PspRoute | null {
  const route = deps.config.pixRoutes.find((candidate) => candidate.name === name);
  return route ? pspRouteOf(route, deps.config, deps.log) : null;
}

/** Every route an account can pick: `simulator` and the configured ones. */
export function routeNames(config: RouteSettings): string[] {
  return [SIMULATOR_ROUTE, ...config.pixRoutes.map((route) => route.name)];
}

/**
 * Whether the route of that name is a configured PSP route without a send API: its transfers are refused
 * before anything is reserved. (A name no route answers to is refused by the route call itself.)
 */
export function routeWithoutSend(config: RouteSettings, name: string): boolean {
  return config.pixRoutes.some((route) => route.name === name && route.send === null);
}

/** The routes as operators see them (GET /admin/routes): no secret, no key material. */
export function routeSummaries(config: RouteSettings) {
  return [
    { name: SIMULATOR_ROUTE, type: 'simulator', baseUrl: null, sendBaseUrl: null, canSend: true, webhookUrl: null },
    ...config.pixRoutes.map((route) => ({
      name: route.name,
      type: route.type,
      baseUrl: route.baseUrl,
      sendBaseUrl: route.send?.baseUrl ?? null,
      canSend: route.send !== null,
      webhookUrl: route.webhookUrl,
    })),
  ];
}

/** The clients of the configured PSP routes (webhook registration at start). */
export function pspClients(config: RouteSettings, log: Logger): PspClient[] {
  return config.pixRoutes.map((route) => pspRouteOf(route, config, log).client);
}

/** Whether the route `resolve` finds is reached over the network; a name no route answers to is not (it is refused where the route is used). */
export function routeIsRemote(resolve: () => ChargeRoute | TransferRoute | RefundRoute): boolean {
  try {
    return resolve().remote;
  } catch (err) {
    if (err instanceof RouteRefused) return false;
    throw err;
  }
}

export function chargeRoute(deps: ChargeRouteDeps, name: string): ChargeRoute {
  if (name === SIMULATOR_ROUTE) return new SimulatorChargeRoute(deps.sql);
  const psp = pspRoute(deps, name);
  if (!psp) throw new RouteRefused(`no Pix route named ${name}`);
  return psp.charges;
}

export function transferRoute(deps: TransferRouteDeps, name: string): TransferRoute {
  if (name === SIMULATOR_ROUTE) {
    return new SimulatorTransferRoute(deps.sql, { settleAfterMs: deps.simulatorTransferDelayMs, onChargePaid: deps.onChargePaid });
  }
  const psp = pspRoute(deps, name);
  if (!psp) throw new RouteRefused(`no Pix transfer route named ${name}`);
  if (!psp.transfers) throw new RouteRefused(`Pix route ${name} has no send API: it cannot send transfers`);
  return psp.transfers;
}

/** The route that returns a received Pix to its payer: the charge's. */
export function refundRoute(deps: ChargeRouteDeps & { simulatorTransferDelayMs: number }, name: string): RefundRoute {
  if (name === SIMULATOR_ROUTE) return new SimulatorRefundRoute(deps.sql, deps.simulatorTransferDelayMs);
  const psp = pspRoute(deps, name);
  if (!psp) throw new RouteRefused(`no Pix route named ${name}`);
  return psp.refunds;
}

/**
 * The recurrence side of a remote route; null for the simulator, whose payer the administration drives.
 * A PSP route without a receiverAccount takes no recurrences (RouteRefused).
 */
export function recurrenceRoute(deps: ChargeRouteDeps, name: string): RecurrenceRoute | null {
  if (name === SIMULATOR_ROUTE) return null;
  const psp = pspRoute(deps, name);
  if (!psp) throw new RouteRefused(`no Pix route named ${name}`);
  if (!psp.recurrences) throw new RouteRefused(`Pix route ${name} has no receiverAccount: it takes no recurrences`);
  return psp.recurrences;
}

/** The route's own records, which reconciliation compares with the engine's. */
export function routeRecords(deps: ChargeRouteDeps, name: string): RouteRecords {
  if (name === SIMULATOR_ROUTE) return new SimulatorRecords(deps.sql);
  const psp = pspRoute(deps, name);
  if (!psp) throw new RouteRefused(`no Pix route named ${name}`);
  return psp.records;
}
