// The engine's Temporal client connection: the SDK's Connection with its default gRPC retries, whose
// close() lets the retries already scheduled start before the channel closes, and schedules no new one.
//
// The SDK retries a call that failed retryably (UNAVAILABLE, RESOURCE_EXHAUSTED…) from a bare timer
// (makeGrpcRetryInterceptor). An attempt that timer starts after Connection.close() throws "Channel has
// been shut down" from the timer: an uncaught exception. It killed the engine at shutdown, skipping the
// steps after it, when calls were still in flight (an accept wait that ran out leaves its update call
// going). Once closing, the retry policy answers "no more retries", and close() waits for the latest retry
// scheduled before it (the policy's backoff: 5 s at most, plus jitter); the calls still in flight then end
// with the channel's status.
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionOptions } from '@temporalio/client';

interface RetryGate {
  closing: boolean;
  /** When the latest retry scheduled starts (epoch ms). */
  lastRetryAt: number;
}

/** The SDK's default retry policy, stopped by `gate.closing`, and noting in `gate` when its retries start. */
function gatedRetries(gate: RetryGate) {
  const policy = defaultGrpcRetryOptions();
  return makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !gate.closing && policy.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const ms = policy.delayFunction(attempt, status);
      gate.lastRetryAt = Math.max(gate.lastRetryAt, Date.now() + ms);
      return ms;
    },
  });
}

export class DrainingConnection extends Connection {
  private gate: RetryGate = { closing: false, lastRetryAt: 0 };

  /** Connects as Connection.connect does (its interceptors are the gated retries). */
  static async open(options: ConnectionOptions): Promise<DrainingConnection> {
    const gate: RetryGate = { closing: false, lastRetryAt: 0 };
    const connection = (await this.connect({ ...options, interceptors: [gatedRetries(gate)] })) as DrainingConnection;
    connection.gate = gate;
    return connection;
  }

  override async close(): Promise<void> {
    this.gate.closing = true;
    const wait = this.gate.lastRetryAt - Date.now();
    // A few ms past it: a timer set for the same instant earlier fires first.
    if (wait > 0) await sleep(wait + 5);
    await super.close();
  }
}
