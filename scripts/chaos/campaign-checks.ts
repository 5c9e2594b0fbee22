// What the campaign itself must show, whatever the engine did: faults were injected (a campaign without
// one proved nothing about recovery), and no 5xx came before the first of them (nothing explains it).
import type { CheckResult } from './check-result.js';
import type { ServerError } from './client.js';
import type { Fault } from './faults.js';

/** What the campaign did besides the workload: its faults, and the answers its client received. */
export interface CampaignRecord {
  faults: Fault[];
  answeredAtMs: number[];
  serverErrors: ServerError[];
}

/** A campaign without a fault proved nothing about recovery. */
export function faultsInjected(faults: Fault[]): CheckResult {
  return {
    name: 'faults were injected',
    examined: faults.length,
    violations: faults.length ? [] : ['no fault was injected: too few operations or seconds for the faulty phase'],
  };
}

/** Before the first fault nothing explains a 5xx: each one is a defect. */
export function noServerErrorBeforeFaults(campaign: CampaignRecord): CheckResult {
  const firstFaultAtMs = Math.min(...campaign.faults.map((f) => f.atMs));
  return {
    name: 'no 5xx before the first fault',
    examined: campaign.answeredAtMs.filter((at) => at < firstFaultAtMs).length,
    violations: campaign.serverErrors
      .filter((e) => e.atMs < firstFaultAtMs)
      .map((e) => `${e.call} answered ${e.answer} at ${new Date(e.atMs).toISOString()}, before any fault`),
  };
}
