// Where a process's payload keys come from at start. The operator's key set (PAYLOAD_KEYS or
// PAYLOAD_KEYS_FILE) when given. Otherwise only `npm start` (the `all` role, one process for a laptop)
// may go on: it keeps its own key file in the data folder, made on first start. The `api` and `worker`
// roles must share the operator's keys (a worker with other keys cannot read what the api wrote), so
// they refuse to start without them.
import { writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, readPayloadKeysFile, type Config } from '../../config/config.js';
import { newPayloadKeysJson, type PayloadKeys } from '../../config/payload-keys.js';

export const DEFAULT_KEY_FILE = 'payload-keys.json';

export interface ResolvedKeys {
  keys: PayloadKeys;
  /** The key file of the data folder in use, when the keys come from there. */
  file: string | null;
  /** True when that file was made by this start. */
  created: boolean;
}

export function resolvePayloadKeys(config: Config, role: string): ResolvedKeys {
  if (config.payloadKeys) return { keys: config.payloadKeys, file: null, created: false };
  if (role !== 'all') {
    throw new ConfigError(
      `PAYLOAD_KEYS or PAYLOAD_KEYS_FILE is required for the ${role} role: every api and worker process must hold the same payload keys (only npm start makes its own key file)`,
    );
  }
  const file = resolve(join(config.dataDir, DEFAULT_KEY_FILE));
  const created = !existsSync(file);
  if (created) {
    mkdirSync(config.dataDir, { recursive: true });
    // 'wx': never overwrite a key file another start made in the meantime.
    writeFileSync(file, newPayloadKeysJson(), { mode: 0o600, flag: 'wx' });
  }
  return { keys: readPayloadKeysFile(file, file), file, created };
}
