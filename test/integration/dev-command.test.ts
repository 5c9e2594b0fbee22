// npm run dev as a newcomer runs it, twice: the real src/dev.ts in a child process against a fresh
// database; the key it prints creates a charge, a local http webhook receiver is accepted, and the
// second run reuses the account, the key and the admin token kept in DATA_DIR/dev.json (mode 0600).
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { TEST_PAYLOAD_KEYS_FILE } from '../helpers/payload-keys.js';
import { freePort } from '../../src/runtime/free-port.js';
import { http, spawnEngine, type EngineProcess } from '../helpers/stack.js';

interface Printed {
  key: string;
  token: string;
  accountId: string;
  curl: string;
}

function printed(proc: EngineProcess): Printed | null {
  const out = proc.output();
  const key = /API key +(\S+)/.exec(out)?.[1];
  const token = /Admin token +(\S+)/.exec(out)?.[1];
  const accountId = /Demo account +(acc_\S+)/.exec(out)?.[1];
  const curl = /(curl -s -X POST http:\/\/localhost:\d+\/v1\/transactions .*)/.exec(out)?.[1];
  return key && token && accountId && curl ? { key, token, accountId, curl } : null;
}

describe('npm run dev', () => {
  it('prints a working key, admin token and first-charge curl, allows a laptop webhook receiver, and reuses them on the next run', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pix-dev-'));
    const [port, adminPort] = [await freePort(), await freePort()];
    const env = {
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: freshDatabaseUrl(inject('testRunId')),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `pix-dev-${port}`,
      TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      PAYLOAD_KEYS_FILE: TEST_PAYLOAD_KEYS_FILE,
      ADMIN_TOKEN: '',
      WEBHOOK_ALLOW_INSECURE: '',
    };
    const runs: Printed[] = [];
    for (let run = 0; run < 2; run++) {
      const dev = spawnEngine('all', env, 'src/dev.ts');
      try {
        await eventually(async () => printed(dev) !== null || dev.child.exitCode !== null, 90_000);
        const shown = printed(dev);
        expect(shown, dev.output().slice(-3000)).not.toBeNull();
        runs.push(shown!);
        // The printed curl, as a shell would send it.
        const body = /-d '(.*)'$/.exec(shown!.curl)![1]!;
        const charge = await http('POST', `http://127.0.0.1:${port}/v1/transactions`, {
          token: shown!.key,
          headers: { 'idempotency-key': `primeira-${run}` },
          body: JSON.parse(body),
        });
        expect(charge.status, charge.text).toBe(201);
        const receiver = await http('POST', `http://127.0.0.1:${adminPort}/admin/accounts/${shown!.accountId}/webhook-endpoints`, {
          token: shown!.token,
          body: { url: `http://127.0.0.1:9/pix-${run}` },
        });
        expect(receiver.status, receiver.text).toBe(201);
      } finally {
        await dev.stop();
      }
    }
    expect(runs[1]).toEqual(runs[0]);
    expect((await stat(join(dataDir, 'dev.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dataDir, 'dev.json'), 'utf8'))).toEqual({
      adminToken: runs[0]!.token,
      accountId: runs[0]!.accountId,
      apiKey: runs[0]!.key,
    });
  }, 240_000);
});
