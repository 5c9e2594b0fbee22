// The bounds every listener of the engine puts on its connections, against a real stack configured
// with small ones: a connection that sends nothing is closed, a request whose headers or body do not
// arrive in time gets a 408 in the envelope, and one client address cannot hold more than
// HTTP_MAX_CONNECTIONS_PER_IP connections (another address is served meanwhile).
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { openConnection, type RawConnection } from '../helpers/raw-connection.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { ADMIN_TOKEN, http } from '../helpers/stack.js';

const CAP = 4;
const live = liveStack({
  env: {
    HTTP_IDLE_TIMEOUT_MS: '1000',
    HTTP_HEADERS_TIMEOUT_MS: '3000',
    HTTP_REQUEST_TIMEOUT_MS: '4000',
    HTTP_MAX_CONNECTIONS_PER_IP: String(CAP),
  },
});

const head = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

/** Sends the head of a request a byte at a time, more often than the idle timeout, until the connection closes. */
function trickleHeaders(connection: RawConnection): void {
  connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ');
  const timer = setInterval(() => connection.socket.write('a'), 200);
  void connection.closed.then(() => clearInterval(timer));
}

function expect408(answer: { status: number; head: string; body: any }): void {
  expect(answer.status).toBe(408);
  expect(answer.head).toMatch(/\r\nX-Service-Version: /i);
  expect(answer.body).toMatchObject({ success: false, error: { code: 'invalid_request' }, requestId: expect.stringMatching(/^req_/) });
}

describe('listener bounds', { timeout: 30_000 }, () => {
  it('closes a connection that sends nothing, on the API and the admin listener', async () => {
    const connections = [await openConnection(live.stack.rootUrl), await openConnection(live.stack.adminUrl)];
    await Promise.all(connections.map((c) => c.closed));
    for (const connection of connections) expect(connection.received()).toBe('');
  });

  it('answers 408 when the headers do not arrive in time', async () => {
    const connection = await openConnection(live.stack.rootUrl);
    trickleHeaders(connection);
    expect408(await connection.response());
    await connection.closed;
  });

  it('answers 408 when a body does not arrive in time, on an authenticated API route and the admin API', async () => {
    const { key } = await createMerchant(live.stack);
    const slow = [
      { url: live.stack.rootUrl, path: '/v1/transactions', token: key },
      { url: live.stack.adminUrl, path: '/admin/accounts', token: ADMIN_TOKEN },
    ];
    for (const { url, path, token } of slow) {
      const connection = await openConnection(url);
      connection.socket.write(
        head('POST', path, {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': '100',
          'idempotency-key': `slow-${Date.now()}`,
        }),
      );
      // The body's bytes come more often than the idle timeout, but not all of them in time.
      const timer = setInterval(() => connection.socket.write(' '), 200);
      expect408(await connection.response());
      clearInterval(timer);
      await connection.closed;
    }
  });

  it(`refuses the connection past ${CAP} from one address, serves other addresses meanwhile, and counts it`, async () => {
    const held: RawConnection[] = [];
    for (let i = 0; i < CAP; i++) {
      held.push(await openConnection(live.stack.rootUrl, '127.0.0.2'));
      trickleHeaders(held.at(-1)!);
    }
    const extra = await openConnection(live.stack.rootUrl, '127.0.0.2');
    await extra.closed;
    expect(extra.received()).toBe('');
    // Refused on arrival: the ones it was refused for are still open.
    expect(held.map((c) => c.isClosed())).toEqual(Array(CAP).fill(false));
    expect((await http('GET', `${live.stack.rootUrl}/healthz`)).status).toBe(200);

    // One held connection gone (once the listener has seen it go), one more from that address is served.
    held.pop()!.socket.destroy();
    const served = await eventually(async () => {
      const next = await openConnection(live.stack.rootUrl, '127.0.0.2');
      next.socket.write(head('GET', '/healthz', { connection: 'close' }));
      // Closed unanswered: the listener has not yet seen the held one go, and still refuses this one (not yet).
      return (
        await next.response().catch((err: Error) => (/closed without a whole response/.test(err.message) ? undefined : Promise.reject(err)))
      )?.status;
    });
    expect(served).toBe(200);
    held.forEach((c) => c.socket.destroy());

    const metrics = parsePrometheusText((await http('GET', `${live.stack.adminUrl.replace(/\/admin$/, '')}/metrics`)).text);
    expect(sampleValue(metrics, 'pix_http_connections_refused_total')).toBeGreaterThanOrEqual(1);
  });
});
