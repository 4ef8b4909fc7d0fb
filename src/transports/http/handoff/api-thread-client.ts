import type { MessagePort } from 'node:worker_threads';
import type { ForwardedReply, ForwardedRequest } from './messages.js';

export type SendOutcome = 'sent' | 'unavailable' | 'overloaded';

type Waiter = (reply: ForwardedReply | undefined) => void;

/**
 * A front thread's end of the hand-off to the API thread: posts requests, matches replies by id.
 * At most `maxPending` requests wait at once; more are refused at once, so a slow API thread
 * costs the front a bounded amount of memory and never blocks it. When the API thread goes away
 * every waiting request is answered `undefined` (the caller replies 503), and `attach` takes
 * the port of its replacement.
 */
export class ApiThreadClient {
  private port: MessagePort | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiter>();

  constructor(readonly maxPending: number) {}

  /** Starts using `port` (a new API thread's); requests still waiting on an old one fail. */
  attach(port: MessagePort): void {
    // A port left open keeps this thread alive after it closes everything else.
    this.close();
    this.port = port;
    port.on('message', (reply: ForwardedReply) => {
      const waiter = this.waiting.get(reply.id);
      if (waiter === undefined) return;
      this.waiting.delete(reply.id);
      waiter(reply);
    });
    port.once('close', () => {
      if (this.port === port) this.detach();
    });
  }

  get pending(): number {
    return this.waiting.size;
  }

  /** Hands `request` (its id is assigned here) to the API thread; `done` runs once, with the reply or undefined. */
  send(request: Omit<ForwardedRequest, 'id'>, done: Waiter): SendOutcome {
    const port = this.port;
    if (port === undefined) return 'unavailable';
    if (this.waiting.size >= this.maxPending) return 'overloaded';
    const id = this.nextId++;
    this.waiting.set(id, done);
    const message: ForwardedRequest = { id, ...request };
    port.postMessage(message, [request.body]);
    return 'sent';
  }

  /** Forgets the port; every waiting request gets `undefined`. */
  detach(): void {
    const port = this.port;
    this.port = undefined;
    port?.removeAllListeners('message');
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) waiter(undefined);
  }

  close(): void {
    const port = this.port;
    this.detach();
    port?.close();
  }
}
