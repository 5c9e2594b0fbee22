// Closing the engine's Temporal client while a call waits between two gRPC retry attempts (Temporal
// unreachable): the SDK's own Connection would start the next attempt from its timer on the closed
// channel and throw "Channel has been shut down" as an uncaught exception, as killed the engine at
// shutdown. The engine's connection lets that attempt start first, retries no more, then closes: the
// call ends with Temporal's unavailability and nothing is thrown outside it.
import { createHook } from 'node:async_hooks';
import { describe, expect, inject, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { DrainingConnection } from '../../src/temporal/draining-connection.js';
import { freePort } from '../../src/runtime/free-port.js';
import { eventually } from '../helpers/eventually.js';
import { tcpRelay } from '../helpers/tcp-relay.js';

const UNAVAILABLE = 14;

/**
 * The timers this process sets while `watching` is on, until each has fired or been cleared: a retry
 * the call scheduled is one of them until it has started.
 */
function timersSet() {
  const pending = new Set<number>();
  let watching = true;
  const hook = createHook({
    init: (id, type) => {
      if (watching && type === 'Timeout') pending.add(id);
    },
    destroy: (id) => pending.delete(id),
  }).enable();
  return {
    pending,
    stopWatching: () => (watching = false),
    disable: () => hook.disable(),
  };
}

describe('closing the Temporal client connection with a call being retried', () => {
  it('ends the call with UNAVAILABLE and throws nothing from a retry timer', async () => {
    const port = await freePort();
    const relay = tcpRelay(port, inject('temporalAddress'));
    await relay.open();
    const connection = await DrainingConnection.open({ address: `127.0.0.1:${port}` });
    await relay.cut();
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', record);
    const timers = timersSet();
    try {
      const call = connection.workflowService.getSystemInfo({});
      const outcome = call.then(
        () => 'answered',
        (err: unknown) => err,
      );
      // A second in, its attempts (each refused at once) have failed a few times: it waits for the next one.
      await sleep(1000);
      await connection.close();
      timers.stopWatching();
      // The attempt close() waited for was the call's last: it ends with Temporal's unavailability.
      expect(await outcome).toMatchObject({ code: UNAVAILABLE });
      // Every timer set from the call to the close has fired or been cleared, so any retry the call had
      // scheduled has started by now: none threw from its timer on the closed channel.
      await eventually(() => timers.pending.size === 0, 15_000);
      expect(uncaught).toEqual([]);
    } finally {
      timers.disable();
      process.off('uncaughtException', record);
    }
  }, 30_000);
});
