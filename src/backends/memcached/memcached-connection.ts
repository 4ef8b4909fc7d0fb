import { isIP, connect as connectPlain, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import {
  encodeDelete,
  encodeIncrements,
  encodeMultiGet,
  Opcode,
  readFrames,
  Status,
  statusText,
  counterValue,
  type IncrementCommand,
  type ResponseFrame,
} from './binary-protocol.js';

/** Where one connection goes and how it may wait. */
export interface ConnectionTarget {
  host: string;
  port: number;
  /** Node's TLS options (files already read); undefined: plain TCP. */
  tls: TlsConnectionOptions | undefined;
}

/** Requests written on a connection whose answers have not all arrived, oldest first. */
interface Exchange {
  firstOpaque: number;
  /** Opaque of the command whose answer ends the exchange (always the last one sent). */
  lastOpaque: number;
  /** performance.now() after which the connection is given up. */
  deadline: number;
  /** Every answer of the exchange, with its command's index; the last one ends it. */
  onFrame(index: number, frame: ResponseFrame): void;
  resolve(): void;
  reject(error: Error): void;
}

/** `host:port` split for node:net; IPv6 may be bracketed. */
export function parseTarget(server: string): { host: string; port: number } {
  const colon = server.lastIndexOf(':');
  const host = server.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(server.slice(colon + 1)) };
}

/**
 * One kept connection to one memcached, pipelined: every exchange is written at once, whatever
 * is still in flight, and the answers, which memcached sends in order, are matched by their
 * opaque. The socket opens on first use and again after it fails; an error or an answer
 * overdue by the timeout fails every exchange in flight and drops the socket (its answers could
 * no longer be matched), so the next exchange starts a fresh one.
 */
export class MemcachedConnection {
  private socket: Socket | undefined;
  private readonly inFlight: Exchange[] = [];
  private partial: Buffer | undefined;
  private nextOpaque = 0;
  /** Exchanges encoded this event-loop turn, written together when it ends. */
  private unwritten: Buffer[] = [];

  constructor(
    private readonly target: ConnectionTarget,
    private readonly timeoutMs: number,
  ) {}

  /** Each key's counter, or undefined when memcached does not hold it. One round trip. */
  multiGet(keys: readonly string[]): Promise<Array<number | undefined>> {
    const values = new Array<number | undefined>(keys.length).fill(undefined);
    return this.exchange(keys.length + 1, (first) => encodeMultiGet(keys, first), (index, frame) => {
      if (frame.opcode === Opcode.GetKQ && index < keys.length) {
        if (frame.status !== Status.Ok) throw new Error(`get ${keys[index]}: ${statusText(frame.status)}`);
        values[index] = counterValue(frame);
      }
    }).then(() => values);
  }

  /** Adds to each counter (creating it when absent); each command's status, `Status.Ok` on success. One round trip. */
  increment(commands: readonly IncrementCommand[]): Promise<number[]> {
    const statuses = new Array<number>(commands.length).fill(Status.Ok);
    return this.exchange(commands.length + 1, (first) => encodeIncrements(commands, first), (index, frame) => {
      if (index < commands.length) statuses[index] = frame.status;
    }).then(() => statuses);
  }

  /** Removes a key; false when it was not there. */
  delete(key: string): Promise<boolean> {
    let found = false;
    return this.exchange(1, (first) => encodeDelete(key, first), (_index, frame) => {
      if (frame.status !== Status.Ok && frame.status !== Status.KeyNotFound) throw new Error(`delete ${key}: ${statusText(frame.status)}`);
      found = frame.status === Status.Ok;
    }).then(() => found);
  }

  /** Fails the exchanges in flight once the oldest is overdue (called by the client's sweep). */
  failOverdue(now: number): void {
    const oldest = this.inFlight[0];
    if (oldest !== undefined && oldest.deadline <= now) this.drop(new Error(`no answer within ${this.timeoutMs} ms`));
  }

  close(): void {
    this.drop(new Error('connection closed'));
  }

  private exchange(commands: number, encode: (firstOpaque: number) => Buffer, onFrame: Exchange['onFrame']): Promise<void> {
    const firstOpaque = this.nextOpaque;
    this.nextOpaque = (this.nextOpaque + commands) >>> 0;
    const bytes = encode(firstOpaque);
    return new Promise((resolve, reject) => {
      this.inFlight.push({ firstOpaque, lastOpaque: (firstOpaque + commands - 1) >>> 0, deadline: performance.now() + this.timeoutMs, onFrame, resolve, reject });
      if (this.unwritten.push(bytes) === 1) setImmediate(() => this.flush());
    });
  }

  /**
   * One write for every exchange of the turn (many requests' gets, or their increments): one
   * system call, and memcached reads and answers them together. Written before the socket
   * connects, the bytes wait in the socket's buffer.
   */
  private flush(): void {
    const buffers = this.unwritten;
    this.unwritten = [];
    if (buffers.length === 0) return;
    const socket = this.open();
    socket.write(buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers));
  }

  private open(): Socket {
    if (this.socket !== undefined) return this.socket;
    const { host, port, tls } = this.target;
    const socket =
      tls === undefined
        ? connectPlain({ host, port })
        : // SNI only takes a name, not an address.
          connectTls({ ...tls, host, port, ...(isIP(host) === 0 ? { servername: host } : {}) });
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    socket.on('data', (chunk: Buffer) => this.receive(socket, chunk));
    socket.on('error', (error) => this.dropIfCurrent(socket, error));
    socket.on('close', () => this.dropIfCurrent(socket, new Error('connection closed by memcached')));
    this.socket = socket;
    return socket;
  }

  private receive(socket: Socket, chunk: Buffer): void {
    if (socket !== this.socket) return;
    const input = this.partial === undefined ? chunk : Buffer.concat([this.partial, chunk]);
    try {
      this.partial = readFrames(input, (frame) => this.answer(frame));
    } catch (error) {
      this.drop(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private answer(frame: ResponseFrame): void {
    const exchange = this.inFlight[0];
    if (exchange === undefined) throw new Error(`an answer nothing was waiting for (opaque ${frame.opaque})`);
    const index = (frame.opaque - exchange.firstOpaque) >>> 0;
    const last = (exchange.lastOpaque - exchange.firstOpaque) >>> 0;
    if (index > last) throw new Error(`an answer out of order (opaque ${frame.opaque}, expected ${exchange.firstOpaque} to ${exchange.lastOpaque})`);
    try {
      exchange.onFrame(index, frame);
    } catch (error) {
      // A refused command fails its exchange; the stream itself is still in step.
      this.inFlight.shift();
      exchange.reject(error instanceof Error ? error : new Error(String(error)));
      if (index < last) this.skipRestOf(exchange);
      return;
    }
    if (index === last) {
      this.inFlight.shift();
      exchange.resolve();
    }
  }

  /**
   * After an exchange failed early, its remaining answers must still be consumed: a placeholder
   * at the head takes them and ends with the exchange's last answer.
   */
  private skipRestOf(exchange: Exchange): void {
    this.inFlight.unshift({ ...exchange, onFrame: () => {}, resolve: () => {}, reject: () => {} });
  }

  private dropIfCurrent(socket: Socket, error: Error): void {
    if (socket === this.socket) this.drop(error);
  }

  private drop(error: Error): void {
    const socket = this.socket;
    this.socket = undefined;
    this.partial = undefined;
    // Their exchanges fail below; sent later, their answers would match nothing.
    this.unwritten = [];
    socket?.destroy();
    const failed = this.inFlight.splice(0);
    for (const exchange of failed) exchange.reject(error);
  }
}
