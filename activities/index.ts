// Activities are thin: each calls into src/ with the process's dependencies.
import type { Deps } from '../src/deps.js';

export function createActivities(_deps: Deps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
