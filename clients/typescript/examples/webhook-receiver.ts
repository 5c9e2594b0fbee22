// The README's first-hour webhook receiver: listens on http://127.0.0.1:9000 (PORT to change it),
// verifies each delivery's X-Service-Signature with the client's verifyWebhook and prints the event.
//   WEBHOOK_SECRET=whsec_… node --import tsx clients/typescript/examples/webhook-receiver.ts
import { createServer } from 'node:http';
import { verifyWebhook } from '../src/webhooks.js';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the secret pixctl listen (or the endpoint) printed');
const port = Number(process.env.PORT ?? 9000);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers['x-service-signature'];
    if (!verifyWebhook(rawBody, Array.isArray(signature) ? signature[0] : signature, secret, 300)) {
      console.log(`refused: bad signature on ${req.headers['x-service-event']}`);
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(rawBody) as { id: string; event: string; data: { id: string; status?: string; amount?: number } };
    console.log(`verified ${event.event} ${event.data.id} status=${event.data.status ?? '-'} amount=${event.data.amount ?? '-'}`);
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () => console.log(`Receiving webhooks on http://127.0.0.1:${port}/pix`));
