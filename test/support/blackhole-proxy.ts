/**
 * A TCP proxy in front of a server whose existing connections can be made to go silent: bytes
 * are swallowed both ways while the sockets stay open, as with a peer that vanished without a
 * reset (a dead host, a dropped NAT entry). New connections keep working, so a client that
 * replaces a silent connection recovers and one that keeps writing to it does not.
 *
 *   const proxy = await startBlackholeProxy(t, memcached.port);
 *   proxy.silenceExisting();
 */
import { connect, createServer, type Socket } from 'node:net';
import type { Teardown } from './teardown.js';

interface Pair {
  client: Socket;
  upstream: Socket;
  silent: boolean;
}

export class BlackholeProxy {
  /** Connections accepted so far. */
  accepted = 0;

  constructor(
    readonly port: number,
    private readonly pairs: Set<Pair>,
    private readonly close: () => Promise<void>,
  ) {}

  /** `127.0.0.1:<port>`. */
  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Every connection open now swallows all further bytes (and stays open); later ones work. */
  silenceExisting(): number {
    for (const pair of this.pairs) pair.silent = true;
    return this.pairs.size;
  }

  shutdown(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    return this.close();
  }
}

export async function startBlackholeProxy(t: Teardown, targetPort: number): Promise<BlackholeProxy> {
  const pairs = new Set<Pair>();
  let proxy: BlackholeProxy | undefined;
  const server = createServer((client) => {
    if (proxy !== undefined) proxy.accepted++;
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: Pair = { client, upstream, silent: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => void (pair.silent || upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => void (pair.silent || client.write(chunk)));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  proxy = new BlackholeProxy(address.port, pairs, () => new Promise((resolve) => server.close(() => resolve())));
  const started = proxy;
  t.teardown(() => started.shutdown());
  return started;
}
