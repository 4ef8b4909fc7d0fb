import { randomUUID } from 'node:crypto';
import { newMatcher } from './matchers/index.js';
import type { Matcher } from './matchers/matcher.js';
import { silenceState, type Silence, type SilenceMatcher } from './model.js';
import { SilenceIndex } from './silence-index.js';
import type { Slicer } from './slicer.js';

export interface SilenceLimits {
  /** Most silences that are not expired; 0: no limit (Alertmanager's --silences.max-silences). */
  maxSilences: number;
  /** Largest silence, in bytes of its stored JSON; 0: no limit (--silences.max-silence-size-bytes). */
  maxSilenceBytes: number;
}

export type SilenceChange =
  | { ok: true; silence: Silence; expired: Silence | undefined }
  | { ok: false; reason: 'not found' }
  | { ok: false; reason: 'invalid'; message: string };

/** What a POST /silences asks for, already validated for its shape. */
export interface SilenceRequest {
  id: string | undefined;
  matchers: readonly SilenceMatcher[];
  /** The same matchers, compiled (once, when the request was checked). */
  compiled: readonly Matcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
  annotations: Readonly<Record<string, string>>;
}

/**
 * Silences as Alertmanager's silences.Set and Expire treat them: an update in place when
 * canUpdate allows it, otherwise a new silence (and the old one expired), retention after the
 * end, and the optional limits. Times are epoch milliseconds. Those not expired are in `index`
 * with their matchers compiled; an update in place keeps the matchers, so it keeps the entry.
 */
export class SilenceStore {
  private readonly silences = new Map<string, Silence>();
  readonly index = new SilenceIndex();

  constructor(private readonly limits: SilenceLimits) {}

  get(id: string): Silence | undefined {
    return this.silences.get(id);
  }

  values(): IterableIterator<Silence> {
    return this.silences.values();
  }

  get size(): number {
    return this.silences.size;
  }

  /** Loads a silence as it was stored (on startup); `indexAll` follows the last one. */
  restore(silence: Silence): void {
    this.silences.set(silence.id, silence);
  }

  /** Removes a silence the durable store says was removed (on startup). */
  forget(id: string): void {
    this.silences.delete(id);
  }

  /** Compiles and indexes every silence not expired at `now`, a slice at a time (after loading). */
  async indexAll(now: number, slicer: Slicer): Promise<void> {
    for (const silence of [...this.silences.values()]) {
      if (silenceState(silence, now) !== 'expired') {
        const compiled = compileMatchers(silence.matchers);
        // A stored matcher that no longer compiles mutes nothing, as before.
        if (compiled !== undefined) this.index.add(silence.id, compiled);
      }
      if (slicer.due()) await slicer.pause();
    }
  }

  set(request: SilenceRequest, now: number): SilenceChange {
    const old = request.id === undefined ? undefined : this.silences.get(request.id);
    if (request.id !== undefined && old === undefined) return { ok: false, reason: 'not found' };
    if (old !== undefined && canUpdate(old, request, now)) {
      const updated: Silence = { ...old, startsAt: request.startsAt, endsAt: request.endsAt, comment: request.comment, createdBy: request.createdBy, annotations: request.annotations, updatedAt: now };
      const tooBig = this.sizeProblem(updated);
      if (tooBig !== undefined) return { ok: false, reason: 'invalid', message: tooBig };
      this.silences.set(updated.id, updated);
      return { ok: true, silence: updated, expired: undefined };
    }
    const created: Silence = {
      id: randomUUID(),
      matchers: request.matchers,
      startsAt: Math.max(request.startsAt, now),
      endsAt: request.endsAt,
      updatedAt: now,
      createdBy: request.createdBy,
      comment: request.comment,
      annotations: request.annotations,
    };
    const tooBig = this.sizeProblem(created);
    if (tooBig !== undefined) return { ok: false, reason: 'invalid', message: tooBig };
    const tooMany = this.countProblem(old === undefined || silenceState(old, now) === 'expired' ? 0 : 1, now);
    if (tooMany !== undefined) return { ok: false, reason: 'invalid', message: tooMany };
    const expired = old !== undefined && silenceState(old, now) !== 'expired' ? this.expireNow(old, now) : undefined;
    this.silences.set(created.id, created);
    this.index.add(created.id, request.compiled);
    return { ok: true, silence: created, expired };
  }

  /** DELETE: an active silence ends now, a pending one starts and ends now; an expired one stays. */
  expire(id: string, now: number): Silence | undefined | 'unchanged' {
    const silence = this.silences.get(id);
    if (silence === undefined) return undefined;
    if (silenceState(silence, now) === 'expired') return 'unchanged';
    return this.expireNow(silence, now);
  }

  private expireNow(silence: Silence, now: number): Silence {
    const expired: Silence = silenceState(silence, now) === 'pending' ? { ...silence, startsAt: now, endsAt: now, updatedAt: now } : { ...silence, endsAt: now, updatedAt: now };
    this.silences.set(expired.id, expired);
    this.index.remove(expired.id);
    return expired;
  }

  /**
   * Removes silences whose end lies more than `retentionMs` in the past; returns their ids.
   * Those that merely expired leave the index (an expired silence never becomes active again).
   */
  collect(now: number, retentionMs: number): string[] {
    const gone: string[] = [];
    for (const [id, silence] of this.silences) {
      if (silenceState(silence, now) === 'expired') this.index.remove(id);
      if (silence.endsAt + retentionMs <= now) {
        this.silences.delete(id);
        gone.push(id);
      }
    }
    return gone;
  }

  private sizeProblem(silence: Silence): string | undefined {
    if (this.limits.maxSilenceBytes === 0) return undefined;
    const size = Buffer.byteLength(JSON.stringify(silence));
    return size > this.limits.maxSilenceBytes ? `silence exceeded maximum size: ${size} bytes (limit: ${this.limits.maxSilenceBytes} bytes)` : undefined;
  }

  /** `freed`: a silence this change expires, which no longer counts. */
  private countProblem(freed: number, now: number): string | undefined {
    if (this.limits.maxSilences === 0) return undefined;
    let live = 0;
    for (const silence of this.silences.values()) if (silenceState(silence, now) !== 'expired') live++;
    live -= freed;
    return live >= this.limits.maxSilences ? `exceeded maximum number of silences: ${live} (limit: ${this.limits.maxSilences})` : undefined;
  }
}

/**
 * Alertmanager's canUpdate: same matchers in the same order; an active silence keeps its start
 * (compared in whole seconds) and may not end in the past; a pending one may move but not
 * start in the past; an expired one never changes.
 */
function canUpdate(old: Silence, next: SilenceRequest, now: number): boolean {
  if (!sameMatchers(old.matchers, next.matchers)) return false;
  switch (silenceState(old, now)) {
    case 'active':
      return Math.floor(old.startsAt / 1000) === Math.floor(next.startsAt / 1000) && next.endsAt >= now;
    case 'pending':
      return next.startsAt >= now;
    case 'expired':
      return false;
  }
}

function sameMatchers(a: readonly SilenceMatcher[], b: readonly SilenceMatcher[]): boolean {
  return a.length === b.length && a.every((m, i) => m.name === b[i]?.name && m.type === b[i]?.type && m.value === b[i]?.value);
}

/** Every matcher compiled, or undefined if one does not compile. */
export function compileMatchers(matchers: readonly SilenceMatcher[]): Matcher[] | undefined {
  const compiled: Matcher[] = [];
  for (const m of matchers) {
    const built = newMatcher(m.name, m.type, m.value);
    if (!built.ok) return undefined;
    compiled.push(built.value);
  }
  return compiled;
}
