// A TCP connection to a listener, driven byte by byte: for what a fetch cannot do, such as sending
// nothing, sending a request's head and only part of its body, or choosing the client's own address
// (any 127.x.y.z reaches a listener on 127.0.0.1, and the listener sees that address).
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Whether the server's side has closed. */
  isClosed(): boolean;
  /** Resolves once the connection is closed (by either side). */
  closed: Promise<void>;
  /** The first whole response the server sent (it has a Content-Length): its status and parsed JSON body. */
  response(): Promise<{ status: number; head: string; body: any }>;
}

/** Opens a connection to the host and port of `url`, from `localAddress` when given. */
export async function openConnection(url: string, localAddress?: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), ...(localAddress ? { localAddress } : {}) });
  let data = Buffer.alloc(0);
  let closed = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    wake();
  });
  socket.on('error', () => {}); // a reset is a close here
  const closedPromise = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      wake();
      resolve();
    }),
  );
  await once(socket, 'connect');

  const parsed = () => {
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = data.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? '0');
    if (data.length < end + 4 + length) return null;
    const body = data.subarray(end + 4, end + 4 + length).toString('utf8');
    return { status: Number(head.split(' ')[1]), head, body: body ? JSON.parse(body) : undefined };
  };
  const response = async () => {
    for (;;) {
      const answer = parsed();
      if (answer) return answer;
      if (closed) throw new Error(`connection closed without a whole response: ${JSON.stringify(data.toString('latin1').slice(0, 300))}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, received: () => data.toString('utf8'), isClosed: () => closed, closed: closedPromise, response };
}
