// An engine on a `bcb-api-pix` route served by the fake PSP, with what its tests read besides HTTP: a
// PostgreSQL connection and a Temporal client for the workflows' histories. Stopped in reverse order.
import type { Client } from '@temporalio/client';
import { connect, type Sql } from '../../src/db/database.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from './fake-psp/index.js';
import { startStack, type Stack } from './stack.js';
import { historyReader } from './workflow-history.js';

export interface PspStack {
  psp: FakePsp;
  stack: Stack;
  sql: Sql;
  temporal: Client;
  /** The engine's PSP webhook listener. */
  listenerUrl: string;
  stop(): Promise<void>;
}

export async function startPspStack(env: Record<string, string> = {}): Promise<PspStack> {
  const psp = await startFakePsp();
  const onPsp = await engineOnFakePsp(psp);
  const stack = await startStack({ env: { ...onPsp.env, ...env } });
  const sql = connect(stack.databaseUrl, { max: 2 });
  const temporal = await historyReader();
  return {
    psp,
    stack,
    sql,
    temporal,
    listenerUrl: onPsp.listenerUrl,
    async stop() {
      await temporal.connection.close();
      await sql.end({ timeout: 5 });
      await stack.stop();
      await psp.close();
    },
  };
}
