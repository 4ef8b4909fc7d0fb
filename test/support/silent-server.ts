/**
 * A TCP server that accepts and never answers nor closes, as a store that hangs would: a client
 * must time out by itself. It counts the connections it accepted, so a test can tell whether a
 * client replaced its connection, and keeps what they sent.
 *
 *   const silent = await startSilentServer(t);
 *   connect(silent.port, '127.0.0.1');
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Teardown } from './teardown.js';

export interface SilentServer {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  /** Every chunk read from the clients, in arrival order. */
  chunks: Buffer[];
}

export async function startSilentServer(t: Teardown): Promise<SilentServer> {
  const sockets: Socket[] = [];
  const chunks: Buffer[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, accepted: () => sockets.length, chunks };
}
