import { createServer, type Server } from 'node:net';

/**
 * `count` distinct ports nothing listens on right now, on `host`: all are held open together, so
 * no two collide; the caller binds them soon after (a small race, accepted). Sockets share a
 * port with SO_REUSEPORT only when each asks for it by number, so PORT=0 is resolved here first.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, resolve);
      });
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      ports.push(address.port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  return port as number;
}
