import { startBenchDevServer } from './dev-server.js';
import { startEngine } from './engine.js';
import { measureCpu } from './process-cpu.js';
import { transferAccounts, transferLoad } from './transfers.js';
const S = Number(process.argv[2] ?? 20);
const C = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.argv[4] ?? 1);
const { server, port } = await startBenchDevServer();
const engine = await startEngine({ TEMPORAL_ADDRESS: server.address, SIMULATOR_TRANSFER_DELAY_MS: '0' });
const apiUrl = `http://127.0.0.1:${engine.port}/v1`;
const payers = await transferAccounts(engine.databaseUrl, 60);
await transferLoad(apiUrl, payers, 3, C, 'warm');
for (let r = 0; r < ROUNDS; r++) {
  const [f, cpu] = await measureCpu({ temporalPort: port, engine: engine.pid }, () => transferLoad(apiUrl, payers, S, C, 'transfers'));
  const per = (x: number | null) => ((x ?? 0) / f.requests).toFixed(2);
  console.log(`${f.perSecond.toFixed(1)}/s p50 ${f.p50.toFixed(0)} errors ${f.errors}; per transfer ms: engine ${per(cpu.engine)} temporal ${per(cpu.temporal)} pg ${per(cpu.postgres)} machine ${per(cpu.machine)}`);
}
await engine.stop();
await server.stop();
