import { ServiceError } from '../errors/index.js';
import { Algorithm, algorithmName, tokenBucketSecondsUntilFull } from './algorithms.js';
import type { Clock } from './clock.js';
import { algorithmIncrement, algorithmKeys, cacheKeyBase } from './counter-key.js';
import type { CounterIncrement, CounterStore } from './counter-store.js';
import { findRule, type CompiledConfig } from './descriptor-trie.js';
import type { DescriptorEntry } from './request.js';
import type { RateLimitRule } from './rule.js';
import { unitName, windowStart } from './units.js';

/** One window's counter as the store holds it. */
export interface WindowCount {
  cacheKey: string;
  /** Epoch second the window starts. */
  windowStart: number;
  count: number;
}

/** One limit of the matched rule and its counter now. */
export interface LimitReport {
  /** Statistics key of the limit (a descriptor's nth limit ends in `.limit_n`). */
  fullKey: string;
  name: string;
  requestsPerUnit: number;
  unit: string;
  algorithm: string;
  shadowMode: boolean;
  /** The key the store holds it under. */
  cacheKey: string;
  windowStart: number;
  /** Epoch second the count starts over: the window's end; for a token bucket, when it is full again. */
  resetAt: number;
  secondsUntilReset: number;
  /** As a decision reads it: hits in the window; a sliding window's weighted estimate; a bucket's tokens taken. */
  count: number;
  remaining: number;
  /** Sliding window: both windows the estimate weighs. */
  currentWindow?: WindowCount;
  previousWindow?: WindowCount;
  /** Token bucket: whole tokens in the bucket. */
  tokens?: number;
}

export interface CounterReport {
  domain: string;
  descriptor: DescriptorEntry[];
  /** Statistics key of the matched rule. */
  rule: string;
  /** The rule sets no limit (`unlimited: true`): there is no counter. */
  unlimited: boolean;
  limits: LimitReport[];
}

export interface CounterInspectorParts {
  store: CounterStore;
  /** BACKEND_TYPE, named when the store cannot reset. */
  storeName: string;
  clock: Clock;
  cacheKeyPrefix: string;
  /** The rules in service on this thread. */
  config(): CompiledConfig | undefined;
}

/** The counters one limit reads: the limit's own (index 0), and a sliding window's two windows. */
interface Planned {
  rule: RateLimitRule;
  counter: CounterIncrement;
  windows: CounterIncrement[];
  nowMs: number;
}

/**
 * Reads and resets the counter a request descriptor counts against, found and keyed exactly as a
 * decision does (findRule, counter-key.ts), without consuming: every read is of 0 hits.
 */
export class CounterInspector {
  constructor(private readonly parts: CounterInspectorParts) {}

  async read(domain: string, entries: DescriptorEntry[]): Promise<CounterReport | ServiceError> {
    const planned = this.plan(domain, entries);
    if (planned instanceof ServiceError) return planned;
    return this.report(domain, entries, planned);
  }

  /** Sets every counter of the matched rule back to zero; answers them as they were just before. */
  async reset(domain: string, entries: DescriptorEntry[]): Promise<CounterReport | ServiceError> {
    const reset = this.parts.store.reset?.bind(this.parts.store);
    if (reset === undefined) {
      return new ServiceError('DBG_COUNTER_RESET_UNSUPPORTED', `the ${this.parts.storeName} counter store cannot reset counters`);
    }
    const planned = this.plan(domain, entries);
    if (planned instanceof ServiceError) return planned;
    const before = await this.report(domain, entries, planned);
    if (before instanceof ServiceError) return before;
    try {
      if (planned.limits.length > 0) await reset(planned.limits.map((limit) => limit.counter));
    } catch (error) {
      return storeFailure(error);
    }
    return before;
  }

  private plan(domain: string, entries: DescriptorEntry[]): { rule: RateLimitRule; limits: Planned[] } | ServiceError {
    const config = this.parts.config();
    if (config === undefined) return new ServiceError('DBG_COUNTER_NOT_FOUND', 'no rate limit configuration is loaded');
    const level = config.domains.get(domain);
    if (level === undefined) return new ServiceError('DBG_COUNTER_NOT_FOUND', `domain ${JSON.stringify(domain)} is not configured`);
    const rule = findRule(level, entries);
    if (rule === undefined) {
      return new ServiceError('DBG_COUNTER_NOT_FOUND', `descriptor ${describe(entries)} matches no rule with a limit in domain ${JSON.stringify(domain)}`);
    }
    if (rule.unlimited) return { rule, limits: [] };
    const nowMs = this.parts.clock.nowMilliseconds?.() ?? this.parts.clock.nowSeconds() * 1000;
    const nowSeconds = Math.floor(nowMs / 1000);
    const limits = [rule, ...(rule.more ?? [])].map((limit) => {
      const base = cacheKeyBase(this.parts.cacheKeyPrefix, domain, entries, limit);
      const start = windowStart(nowSeconds, limit.limit.unit);
      if (limit.algorithm === Algorithm.FIXED_WINDOW) {
        const counter: CounterIncrement = { key: base + start, hits: 0, unit: limit.limit.unit, windowStart: start };
        return { rule: limit, counter, windows: [], nowMs };
      }
      const counter = algorithmIncrement(algorithmKeys(base, limit, start), limit, 0, nowMs);
      const windows: CounterIncrement[] =
        limit.algorithm === Algorithm.SLIDING_WINDOW
          ? [
              { key: counter.key, hits: 0, unit: counter.unit, windowStart: start },
              { key: counter.algorithm?.previousKey ?? '', hits: 0, unit: counter.unit, windowStart: start - limit.unitSeconds },
            ]
          : [];
      return { rule: limit, counter, windows, nowMs };
    });
    return { rule, limits };
  }

  private async report(domain: string, entries: DescriptorEntry[], planned: { rule: RateLimitRule; limits: Planned[] }): Promise<CounterReport | ServiceError> {
    const reads = planned.limits.flatMap((limit) => [limit.counter, ...limit.windows]);
    let counts: number[] = [];
    if (reads.length > 0) {
      const store = this.parts.store;
      try {
        counts = await (store.read === undefined ? store.increment(reads) : store.read(reads));
      } catch (error) {
        return storeFailure(error);
      }
    }
    let next = 0;
    const limits = planned.limits.map((limit) => {
      const count = counts[next++] as number;
      const windows = limit.windows.map((window) => ({ cacheKey: window.key, windowStart: window.windowStart, count: counts[next++] as number }));
      return limitReport(limit, count, windows);
    });
    return { domain, descriptor: entries, rule: planned.rule.fullKey, unlimited: planned.rule.unlimited, limits };
  }
}

function limitReport(planned: Planned, count: number, windows: WindowCount[]): LimitReport {
  const { rule, counter, nowMs } = planned;
  const limit = rule.limit.requestsPerUnit;
  let resetAt = counter.windowStart + rule.unitSeconds;
  let secondsUntilReset = resetAt - Math.floor(nowMs / 1000);
  const report: LimitReport = {
    fullKey: rule.fullKey,
    name: rule.limit.name,
    requestsPerUnit: limit,
    unit: unitName(rule.limit.unit),
    algorithm: algorithmName(rule.algorithm),
    shadowMode: rule.shadowMode,
    cacheKey: counter.key,
    windowStart: counter.windowStart,
    resetAt,
    secondsUntilReset,
    count,
    remaining: Math.max(0, limit - count),
  };
  if (rule.algorithm === Algorithm.SLIDING_WINDOW) {
    report.currentWindow = windows[0];
    report.previousWindow = windows[1];
  } else if (rule.algorithm === Algorithm.TOKEN_BUCKET) {
    secondsUntilReset = tokenBucketSecondsUntilFull(count, limit, rule.unitSeconds * 1000, 0, true);
    resetAt = Math.floor(nowMs / 1000) + secondsUntilReset;
    Object.assign(report, { resetAt, secondsUntilReset, tokens: Math.max(0, limit - count) });
  }
  return report;
}

function storeFailure(error: unknown): ServiceError {
  return new ServiceError('DBG_COUNTER_STORE_ERROR', `counter store: ${error instanceof Error ? error.message : String(error)}`);
}

function describe(entries: readonly DescriptorEntry[]): string {
  return JSON.stringify(entries.map((entry) => `${entry.key}=${entry.value}`).join(','));
}
