// The one way the engine bounds a wait: the API waits for a workflow only so long (ACCEPT_WAIT_MS), a
// readiness probe or an indicator query only so long, and past that answers with what it knows.

export const TIMED_OUT = Symbol('timed out');

/** Resolves to the promise's value, or TIMED_OUT after `ms` (the promise keeps running; its later failure is ignored). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => {});
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), ms);
    }),
  ]);
}
