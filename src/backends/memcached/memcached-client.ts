import { crc32 } from 'node:zlib';
import type { IncrementCommand } from './binary-protocol.js';
import { MemcachedConnection, parseTarget, type ConnectionTarget } from './memcached-connection.js';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';

/**
 * gomemcache's server choice: CRC-32 (IEEE) of the key modulo the number of servers, in list
 * order, so a key lives on the same node whichever service counts it.
 */
export function pickServer(serverCount: number, key: string): number {
  return serverCount === 1 ? 0 : crc32(key) % serverCount;
}

export interface MemcachedClientOptions {
  /** `host:port` of every node, in the order that picks a key's node. */
  servers: readonly string[];
  /** Kept connections per node; calls take them in turn. */
  connectionsPerServer: number;
  /** An exchange without its answers after this long fails, with everything on its connection. */
  timeoutMs: number;
  tls: TlsConnectionOptions | undefined;
}

/** The items of one call that go to one node, with where they came from. */
interface NodeShare<T> {
  node: number;
  items: T[];
  indexes: number[];
}

function shareOut<T>(serverCount: number, items: readonly T[], keyOf: (item: T) => string): Array<NodeShare<T>> {
  if (serverCount === 1) return [{ node: 0, items: [...items], indexes: items.map((_, i) => i) }];
  const byNode = new Map<number, NodeShare<T>>();
  items.forEach((item, i) => {
    const node = pickServer(serverCount, keyOf(item));
    let share = byNode.get(node);
    if (share === undefined) byNode.set(node, (share = { node, items: [], indexes: [] }));
    share.items.push(item);
    share.indexes.push(i);
  });
  return [...byNode.values()];
}

/**
 * memcached nodes, each over a few kept, pipelined binary-protocol connections (see
 * binary-protocol.ts for why by hand). A call's keys are shared out over the nodes and each
 * node's share is one exchange on one connection, so a request costs one round trip per node
 * it touches, whatever its number of keys.
 */
export class MemcachedClient {
  private readonly nodes: MemcachedConnection[][];
  private turn = 0;
  private readonly sweep: NodeJS.Timeout;

  constructor(readonly options: MemcachedClientOptions) {
    this.nodes = options.servers.map((server) => {
      const target: ConnectionTarget = { ...parseTarget(server), tls: options.tls };
      return Array.from({ length: options.connectionsPerServer }, () => new MemcachedConnection(target, options.timeoutMs));
    });
    // One timer for every connection: a deadline per exchange would cost a timer per request.
    this.sweep = setInterval(() => {
      const now = performance.now();
      for (const node of this.nodes) for (const connection of node) connection.failOverdue(now);
    }, Math.max(5, Math.floor(options.timeoutMs / 8)));
    this.sweep.unref();
  }

  /** Each key's counter (undefined: absent), read with one multi-get per node. */
  getMulti(keys: readonly string[]): Promise<Array<number | undefined>> {
    const connection = this.connectionsForCall();
    // One node (the usual sidecar setup): its answers are already in the keys' order, and the
    // request saves the promises of sharing out (a few per request on the /json hot path).
    if (this.nodes.length === 1) return connection(0).multiGet(keys);
    return this.perNode(keys, (key) => key, (node, share) => connection(node).multiGet(share), undefined);
  }

  /** Each command's status (`Status.Ok` on success); a node that fails rejects the whole call. */
  increment(commands: readonly IncrementCommand[]): Promise<number[]> {
    const connection = this.connectionsForCall();
    if (this.nodes.length === 1) return connection(0).increment(commands);
    return this.perNode(commands, (command) => command.key, (node, share) => connection(node).increment(share), 0);
  }

  /** `items` shared out over their nodes, one call per node, the answers put back in the items' order. */
  private async perNode<T, R>(items: readonly T[], keyOf: (item: T) => string, call: (node: number, share: T[]) => Promise<R[]>, fill: R): Promise<R[]> {
    const answers = new Array<R>(items.length).fill(fill);
    await Promise.all(
      shareOut(this.nodes.length, items, keyOf).map(async (share) => {
        const answered = await call(share.node, share.items);
        share.indexes.forEach((at, i) => (answers[at] = answered[i] as R));
      }),
    );
    return answers;
  }

  /** Removes `key` from its node; false when it was not there. */
  delete(key: string): Promise<boolean> {
    return this.connectionsForCall()(pickServer(this.nodes.length, key)).delete(key);
  }

  close(): void {
    clearInterval(this.sweep);
    for (const node of this.nodes) for (const connection of node) connection.close();
  }

  /** The connection a call uses on each node: calls take each node's connections in turn. */
  private connectionsForCall(): (node: number) => MemcachedConnection {
    const turn = this.turn;
    this.turn = (turn + 1) % this.options.connectionsPerServer;
    return (node) => (this.nodes[node] as MemcachedConnection[])[turn] as MemcachedConnection;
  }
}
