import type { MessagePort } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import { verdictKey, type VerdictCache } from './verdict-cache.js';

/** HTTP thread -> password-check thread. */
export interface PasswordCheckRequest {
  id: number;
  hash: string;
  password: string;
}

/** Password-check thread -> HTTP thread. */
export interface PasswordCheckReply {
  id: number;
  match: boolean;
}

/** How long an HTTP thread waits for a verdict before it answers 503. */
export const PASSWORD_CHECK_TIMEOUT_MS = 10_000;

/**
 * The password-check thread's side of one HTTP thread's port: a bcrypt comparison per request,
 * one at a time (bcrypt is slow by design: about 0.1 s at cost 10), remembering verdicts across
 * every HTTP thread, so a credential one thread checked is not hashed again for another.
 */
export function answerPasswordChecks(port: MessagePort, verdicts: VerdictCache): void {
  port.on('message', (request: PasswordCheckRequest) => {
    const key = verdictKey('', request.hash, request.password);
    let match = verdicts.get(key);
    if (match === undefined) {
      try {
        match = bcrypt.compareSync(request.password, request.hash);
      } catch {
        match = false;
      }
      verdicts.set(key, match);
    }
    const reply: PasswordCheckReply = { id: request.id, match };
    port.postMessage(reply);
  });
}

/** An HTTP thread's side: asks the password-check thread, never hashes itself. */
export class PasswordCheckClient {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (match: boolean | 'unavailable') => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly port: MessagePort,
    private readonly timeoutMs = PASSWORD_CHECK_TIMEOUT_MS,
  ) {
    port.on('message', (reply: PasswordCheckReply) => this.settle(reply.id, reply.match));
    // The thread is started for the process's lifetime; an idle port must not keep this one alive.
    port.unref();
  }

  /** Whether `password` hashes to `hash`; 'unavailable' when no verdict came in time. */
  check(hash: string, password: string): Promise<boolean | 'unavailable'> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, 'unavailable'), this.timeoutMs);
      this.waiting.set(id, { resolve, timer });
      const request: PasswordCheckRequest = { id, hash, password };
      this.port.postMessage(request);
    });
  }

  private settle(id: number, match: boolean | 'unavailable'): void {
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    this.waiting.delete(id);
    clearTimeout(waiter.timer);
    waiter.resolve(match);
  }

  close(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, 'unavailable');
    this.port.close();
  }
}
