// The command that starts the engine from Node (the tests, the chaos cluster, the benches): scripts/launch.sh,
// as `npm start` and the image run it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LAUNCHER = join(dirname(fileURLToPath(import.meta.url)), 'launch.sh');

/** `[command, args]` that runs `entry` (a built module, e.g. dist/src/main.js) in `role`, with `nodeOptions` after the launcher's own. */
export function engineLaunch(entry, role, nodeOptions = []) {
  return ['sh', [LAUNCHER, ...nodeOptions, entry, role]];
}
