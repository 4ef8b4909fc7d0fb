/**
 * A real statsd daemon stand-in for tests: a UDP socket or a TCP server on a free port on
 * 127.0.0.1 that records every line it receives, parsed. Tests point METRICSD_HOST/PORT at it
 * and wait for what a flush must deliver; `waitFor` re-checks on each arrival (no sleeps).
 *
 *   const statsd = await startStatsdListener(t, 'tcp');
 *   await startProcess(t, { METRICSD_PORT: String(statsd.port), STATS_FLUSH_INTERVAL: '100ms' });
 *   await statsd.waitFor((lines) => statsd.sum('ratelimit.service.rate_limit.basic.key1.total_hits') === 3);
 */
import { createSocket } from 'node:dgram';
import { createServer, type Socket } from 'node:net';
import type { Teardown } from './teardown.js';

export type StatsdProtocol = 'tcp' | 'udp';

/** One statsd line: `name:value|type[|@rate][|#tag:v,tag2:v2]`. */
export interface StatsdLine {
  raw: string;
  name: string;
  value: number;
  /** `c`, `g`, `ms`... */
  type: string;
  /** The sample rate (`|@0.25`); 1 when absent. */
  rate: number;
  /** DogStatsD tags (`|#k:v`), in the order sent. */
  tags: string[];
}

export interface StatsdListener {
  readonly port: number;
  readonly protocol: StatsdProtocol;
  readonly lines: readonly StatsdLine[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Sum of every value received for `name` (counters: the total of the deltas). */
  sum(name: string, type?: string): number;
  /** Lines for `name` (optionally of one type), in arrival order. */
  linesOf(name: string, type?: string): StatsdLine[];
  waitFor(predicate: (lines: readonly StatsdLine[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function parseStatsdLine(raw: string): StatsdLine | undefined {
  const colon = raw.lastIndexOf(':', raw.indexOf('|'));
  if (colon <= 0) return undefined;
  const [valueText, type, ...rest] = raw.slice(colon + 1).split('|');
  if (valueText === undefined || type === undefined) return undefined;
  let rate = 1;
  let tags: string[] = [];
  for (const part of rest) {
    if (part.startsWith('@')) rate = Number(part.slice(1));
    else if (part.startsWith('#')) tags = part.slice(1).split(',');
  }
  return { raw, name: raw.slice(0, colon), value: Number(valueText), type, rate, tags };
}

/** `port` 0 (default) takes a free one; a fixed port brings a daemon up where a service already sends. */
export async function startStatsdListener(t: Teardown, protocol: StatsdProtocol, port = 0): Promise<StatsdListener> {
  const lines: StatsdLine[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;
  const receive = (text: string) => {
    for (const raw of text.split('\n')) {
      const line = raw === '' ? undefined : parseStatsdLine(raw);
      if (line !== undefined) lines.push(line);
    }
    for (const check of waiters) check();
  };

  let bound: number;
  let closeTransport: () => Promise<void>;
  if (protocol === 'udp') {
    const socket = createSocket('udp4');
    socket.on('message', (message) => receive(message.toString('utf8')));
    await new Promise<void>((resolve) => socket.bind(port, '127.0.0.1', resolve));
    bound = socket.address().port;
    closeTransport = () => new Promise((resolve) => socket.close(() => resolve()));
  } else {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      connections++;
      sockets.add(socket);
      let pending = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        pending += chunk;
        const end = pending.lastIndexOf('\n');
        if (end < 0) return;
        receive(pending.slice(0, end));
        pending = pending.slice(end + 1);
      });
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('statsd listener has no TCP port');
    bound = address.port;
    closeTransport = () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
  }

  let closed = false;
  const listener: StatsdListener = {
    port: bound,
    protocol,
    lines,
    get connections() {
      return connections;
    },
    linesOf: (name, type) => lines.filter((l) => l.name === name && (type === undefined || l.type === type)),
    sum: (name, type) => listener.linesOf(name, type).reduce((total, l) => total + l.value, 0),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate(lines)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const names = [...new Set(lines.map((l) => l.name))].slice(0, 40);
          reject(new Error(`statsd listener: condition not met within ${timeoutMs} ms; ${lines.length} lines received, names: ${names.join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeTransport();
    },
  };
  t.teardown(() => listener.close());
  return listener;
}
