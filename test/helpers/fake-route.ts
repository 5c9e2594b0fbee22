// A base for the fake activities of test/workflows that stand for a Pix route: it records each
// call (TimedCalls), and the call that hands the transaction to the route can be refused or fail.
import { ApplicationFailure } from '@temporalio/common';
import { ROUTE_REFUSED } from '../../contracts/transaction.contract.js';
import { TimedCalls } from './time-skipping.js';

export class FakeRoute extends TimedCalls {
  /** The route refuses the hand-over for good (not retried). */
  refuses = false;
  /** The hand-over fails this many times (the route is down) before it goes through. */
  outage = 0;

  /** Records the hand-over call `name`, then refuses it with `reason` or fails it as set above. */
  protected async recordHandOver(name: string, reason: string): Promise<void> {
    await this.record(name);
    if (this.refuses) throw ApplicationFailure.nonRetryable(reason, ROUTE_REFUSED);
    if (this.outage > 0) {
      this.outage -= 1;
      throw new Error('route unavailable');
    }
  }
}
