// Worker process of the bare Temporal baseline: its own task queue, the baseline workflow, one no-op activity.
//   TEMPORAL_ADDRESS=… BASELINE_TASK_QUEUE=… node --import tsx bench/baseline/worker.ts
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

Runtime.install({ logger: new DefaultLogger('WARN') });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
const worker = await Worker.create({
  connection,
  taskQueue: process.env.BASELINE_TASK_QUEUE!,
  workflowsPath: join(dirname(fileURLToPath(import.meta.url)), 'workflow.ts'),
  activities: { noop: async () => 'ok' },
});
process.once('SIGTERM', () => worker.shutdown());
process.stdout.write('baseline worker running\n');
await worker.run();
await connection.close();
