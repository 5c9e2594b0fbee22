// Every regular activity heartbeats while it runs, so that the server learns within the activity's
// heartbeat timeout (2 s, set by the workflows) that its worker died, and retries it on another
// worker instead of waiting out the start-to-close timeout. The SDK throttles the heartbeats it
// sends; an activity shorter than a third of the timeout sends none. Local activities cannot heartbeat.
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

export const heartbeats: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    async execute(input, next) {
      const timeoutMs = context.info.heartbeatTimeoutMs;
      if (context.info.isLocal || !timeoutMs) return next(input);
      const beat = setInterval(() => context.heartbeat(), Math.max(100, Math.floor(timeoutMs / 3)));
      try {
        return await next(input);
      } finally {
        clearInterval(beat);
      }
    },
  },
});
