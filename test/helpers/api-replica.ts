// A second API process on the same database as a stack, as a horizontally scaled deployment runs it.
import { freePort } from '../../src/runtime/free-port.js';
import { spawnEngine, waitReady, type EngineProcess, type Stack } from './stack.js';

export interface ApiReplica {
  baseUrl: string;
  process: EngineProcess;
}

/** Starts `main.ts api` with the stack's environment on ports of its own; the stack's stop() stops it too. */
export async function startApiReplica(stack: Stack, env: Record<string, string> = {}): Promise<ApiReplica> {
  const port = await freePort();
  const proc = spawnEngine('api', { ...stack.env, PORT: String(port), ADMIN_PORT: String(await freePort()), ...env });
  stack.processes.push(proc);
  const rootUrl = `http://127.0.0.1:${port}`;
  await waitReady(rootUrl, proc);
  return { baseUrl: `${rootUrl}/v1`, process: proc };
}
