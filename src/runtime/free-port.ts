// A loopback port to bind: the tests, benches and chaos runs give them to the engines they start, and the
// engine gives one to the Temporal SDK for its metrics (src/metrics/temporal.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Ports the kernel hands to outgoing connections (to PostgreSQL, Temporal, webhooks) are not offered: a port
// the kernel chose with listen(0) could be taken by such a connection before the engine binds it (EADDRINUSE).
const EPHEMERAL_START = ephemeralStart();
// Above every port that fetch refuses to connect to (the Fetch standard's "bad ports"; the highest is 10080).
const LOWEST = 10_081;

function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > LOWEST + 1_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port, below the kernel's ephemeral range, that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (EPHEMERAL_START - LOWEST));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${EPHEMERAL_START}`);
}
