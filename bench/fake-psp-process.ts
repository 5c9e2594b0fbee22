// The conformance fake PSP (test/helpers/fake-psp) as a process of its own, for a bench that measures
// its caller alone: it seeds its lists with the windows of FAKE_PSP_SEEDED (JSON `{received, envios}`,
// each a list of SeededWindow with ISO times), writes a routes file for route `psp` on itself, prints
// `routes file: <path>` and serves until SIGTERM.
import { startFakePsp } from '../test/helpers/fake-psp/index.js';
import type { SeededWindow } from '../test/helpers/fake-psp/lists.js';

type Seeded = Omit<SeededWindow, 'from' | 'to'> & { from: string; to: string };

const seeded = JSON.parse(process.env.FAKE_PSP_SEEDED ?? '{}') as { received?: Seeded[]; envios?: Seeded[] };
const windowOf = (window: Seeded): SeededWindow => ({ ...window, from: new Date(window.from), to: new Date(window.to) });

const psp = await startFakePsp();
for (const window of seeded.received ?? []) psp.lists.seedReceived(windowOf(window));
for (const window of seeded.envios ?? []) psp.lists.seedEnvios(windowOf(window));
process.once('SIGTERM', () => void psp.close().then(() => process.exit(0)));
process.stdout.write(`routes file: ${psp.writeRoutesFile()}\n`);
