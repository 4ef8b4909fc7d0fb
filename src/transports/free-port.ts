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

/**
 * `listen` on a free port of `host`. A port picked here is released before `listen` binds it, and
 * another socket (an outgoing connection's local port, say) may take it in between: while
 * `listen` fails with an error `taken` recognises, another port is picked, `picks` in all.
 */
export async function listenOnFreePort<T>(host: string, listen: (port: number) => Promise<T>, taken: (error: unknown) => boolean, picks = 5, pick: (host: string) => Promise<number> = freePort): Promise<T> {
  for (let picked = 1; ; picked++) {
    try {
      return await listen(await pick(host));
    } catch (error) {
      if (!taken(error) || picked >= picks) throw error;
    }
  }
}

/**
 * Whether another process already listens on host:port. uWS listens with SO_REUSEPORT, which lets
 * a second process bind a port the first one holds and take half its connections; a plain bind
 * (no SO_REUSEPORT) fails on a port held by any socket, so it tells, before our threads bind.
 */
export async function portIsTaken(host: string, port: number): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return true;
    throw error;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
