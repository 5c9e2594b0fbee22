// The chaos campaign's own checks (scripts/chaos/campaign-checks.ts): a campaign that injected no fault
// fails, and so does a 5xx that came before the first fault, when nothing explains it.
import { describe, expect, it } from 'vitest';
import { faultsInjected, noServerErrorBeforeFaults } from '../../scripts/chaos/campaign-checks.js';
import type { Fault } from '../../scripts/chaos/faults.js';

const fault = (atMs: number): Fault => ({ kind: 'worker_kill', target: 'worker-1', atMs, recoveredAtMs: atMs + 3000 });
const serverError = (atMs: number) => ({ atMs, call: 'POST /v1/transactions', answer: '500 {"code":"internal_error"}' });

describe('chaos campaign checks', () => {
  it('a campaign without a fault fails; one with faults passes', () => {
    expect(faultsInjected([]).violations).toEqual(['no fault was injected: too few operations or seconds for the faulty phase']);
    expect(faultsInjected([fault(1000), fault(5000)])).toMatchObject({ examined: 2, violations: [] });
  });

  it('a 5xx before the first fault is a violation; one after it is not', () => {
    const check = noServerErrorBeforeFaults({
      faults: [fault(5000), fault(9000)],
      answeredAtMs: [1000, 2000, 4999, 5001, 6000],
      serverErrors: [serverError(2000), serverError(6000)],
    });
    expect(check.examined).toBe(3);
    expect(check.violations).toEqual([
      `POST /v1/transactions answered 500 {"code":"internal_error"} at ${new Date(2000).toISOString()}, before any fault`,
    ]);
  });

  it('without any fault, every 5xx is a violation', () => {
    const check = noServerErrorBeforeFaults({ faults: [], answeredAtMs: [1000, 2000], serverErrors: [serverError(2000)] });
    expect(check).toMatchObject({ examined: 2 });
    expect(check.violations).toHaveLength(1);
  });
});
