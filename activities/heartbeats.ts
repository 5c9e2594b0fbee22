// Every regular activity heartbeats while it runs, so that the server learns within the activity's
// heartbeat timeout (2 s, set by the workflows) that its worker died, and retries it on another
// worker instead of waiting out the start-to-close timeout. The SDK throttles the heartbeats it
// sends; an activity shorter than a third of the timeout sends none. Local activities cannot heartbeat.
import { Context } from '@temporalio/activity';

type AnyActivity = (...args: never[]) => Promise<unknown>;

export function withHeartbeats<A extends Record<string, AnyActivity>>(activities: A): A {
  return Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [
      name,
      async (...args: never[]) => {
        const context = Context.current();
        const timeoutMs = context.info.heartbeatTimeoutMs;
        if (context.info.isLocal || !timeoutMs) return activity(...args);
        const beat = setInterval(() => context.heartbeat(), Math.max(100, Math.floor(timeoutMs / 3)));
        try {
          return await activity(...args);
        } finally {
          clearInterval(beat);
        }
      },
    ]),
  ) as A;
}
