// A real HTTP webhook receiver on 127.0.0.1 for integration tests: it records every request it gets
// (headers and raw body) and answers each by a scripted reply (status, delay, headers).
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  receivedAtMs: number;
}

export interface ReceiverReply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  /** http://127.0.0.1:PORT/hook */
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** `reply(n)` answers the n-th request (1-based); the default always answers 200. */
export async function startReceiver(reply: (n: number) => ReceiverReply = () => ({ status: 200 })): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        receivedAtMs: Date.now(),
      });
      const answer = reply(received.length);
      const timer = setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('ok');
      }, answer.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}
