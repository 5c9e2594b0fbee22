// The benches' own Temporal dev server: in memory, without its UI, on a free loopback port (the port names
// its process for the CPU figures of process-cpu.ts).
import { startDevServer } from '../src/temporal/dev-server.js';
import { freePort } from '../src/runtime/free-port.js';

export async function startBenchDevServer(): Promise<{ server: Awaited<ReturnType<typeof startDevServer>>; port: number }> {
  const port = await freePort();
  const server = await startDevServer({ port, uiPort: null, dbFile: null, namespace: 'default', searchPath: process.env.PATH ?? '' });
  return { server, port };
}
