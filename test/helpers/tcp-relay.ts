// A TCP relay on a local port to a target `host:port` that a test can cut (listener closed, open
// connections destroyed) and restore: the engine reaches a dependency (Temporal) only through it.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  open(): Promise<void>;
  cut(): Promise<void>;
}

export function tcpRelay(port: number, target: string): TcpRelay {
  const [host, targetPort] = target.split(':') as [string, string];
  const sockets = new Set<Socket>();
  let server: Server | null = null;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  return {
    open: () =>
      new Promise<void>((resolve) => {
        server = createServer((inbound) => {
          const outbound = connect(Number(targetPort), host);
          track(inbound);
          track(outbound);
          inbound.pipe(outbound).pipe(inbound);
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
  };
}
