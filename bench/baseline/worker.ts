// Worker process of the bare Temporal baselines (bench/baseline/workflow.ts): its own task queue, the
// baseline workflows, a no-op activity and a signed POST.
//   TEMPORAL_ADDRESS=… BASELINE_TASK_QUEUE=… node --import tsx bench/baseline/worker.ts
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { signPayload } from '../../src/webhooks/sign.js';
import type { BaselineActivities } from './workflow.js';

const SIGNING_KEY = 'baseline';
const agent = new Agent({ keepAlive: true });

const activities: BaselineActivities = {
  noop: async () => 'ok',
  notify: (url, id) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ event: 'baseline.paid', id });
      const signature = signPayload(SIGNING_KEY, body, Math.floor(Date.now() / 1000));
      const req = request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-service-signature': signature } },
        (res) => {
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(body);
    }),
};

Runtime.install({ logger: new DefaultLogger('WARN') });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
const worker = await Worker.create({
  connection,
  taskQueue: process.env.BASELINE_TASK_QUEUE!,
  workflowsPath: join(dirname(fileURLToPath(import.meta.url)), 'workflow.ts'),
  activities,
});
process.once('SIGTERM', () => worker.shutdown());
process.stdout.write('baseline worker running\n');
await worker.run();
await connection.close();
