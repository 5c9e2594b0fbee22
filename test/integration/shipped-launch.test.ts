// The engine as it ships: every stack of the suite is started by scripts/launch.sh, as `npm start`, `npm run api`
// and the image start it (test/unit/launch.test.ts ties those to the launcher). Here: the running process really
// has the launcher's Node options and environment, and what broke under them works: a transfer paid with a QR
// image (its decoder's worker thread once refused the launch's V8 flags, and every such transfer answered 500).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { qrPngBase64 } from '../../src/domain/qrcode.js';
import { engineLaunch } from '../../scripts/launch.mjs';
import { startApiReplica, type ApiReplica } from '../helpers/api-replica.js';
import { client, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import type { EngineProcess } from '../helpers/stack.js';
import { fund, postTransfer } from '../helpers/transfers.js';

const CODE = buildBrCode({ pixKey: 'loja@example.com', amountCents: 1000, txid: 'lancado1', merchantName: 'Loja', merchantCity: 'Recife' });

/** The Node options and MALLOC_ARENA_MAX of a process the launcher starts with the test's environment. */
function launcherRun(): { nodeOptions: string[]; arenas: string } {
  const probe = 'JSON.stringify([process.execArgv.slice(0, -2), process.env.MALLOC_ARENA_MAX])';
  const [command, args] = engineLaunch('-p', probe);
  const [nodeOptions, arenas] = JSON.parse(execFileSync(command, args, { encoding: 'utf8' })) as [string[], string];
  return { nodeOptions, arenas };
}

/** The command line and MALLOC_ARENA_MAX of a running engine, from /proc. */
function running(proc: EngineProcess): { argv: string[]; arenas: string | undefined } {
  const read = (file: string) => readFileSync(`/proc/${proc.child.pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  const arenas = read('environ').find((entry) => entry.startsWith('MALLOC_ARENA_MAX='));
  return { argv: read('cmdline'), arenas: arenas?.slice('MALLOC_ARENA_MAX='.length) };
}

describe('the engine started as it ships (scripts/launch.sh)', () => {
  const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  let replica: ApiReplica;
  beforeAll(async () => {
    replica = await startApiReplica(live.stack);
  });

  it("runs `all` and `api` with the launcher's Node options and MALLOC_ARENA_MAX", () => {
    const launcher = launcherRun();
    expect(launcher.nodeOptions.length).toBeGreaterThan(0);
    for (const [proc, role] of [
      [live.stack.processes[0]!, 'all'],
      [replica.process, 'api'],
    ] as const) {
      const { argv, arenas } = running(proc);
      expect(argv.slice(1, -2)).toEqual(launcher.nodeOptions);
      expect(argv.slice(-2)).toEqual([expect.stringMatching(/\/src\/main\.js$/), role]);
      expect(arenas).toBe(launcher.arenas);
    }
  });

  it.each(['all', 'api'] as const)('pays a transfer with a QR image through `%s` (201, not 500)', async (role) => {
    const merchant = await createMerchant(live.stack);
    await fund(live.stack, merchant.client, 10);
    const payer = role === 'all' ? merchant.client : client({ ...live.stack, baseUrl: replica.baseUrl }, merchant.key);
    const res = await postTransfer(payer, { destination: { type: 'qr_code', value: await qrPngBase64(CODE) } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 10, counterparty: { type: 'br_code', txid: 'lancado1' } });
  });
});
