import { CounterKeyError, type CounterIncrement, type CounterStore } from './counter-store.js';
import { ServiceError } from '../errors/index.js';
import type { Counter, RuleStats, RuleStatsFactory, StatsStore } from '../observability/stats.js';
import { decide } from './accounting.js';
import { Algorithm, tokenBucketSecondsUntilFull, type AlgorithmCount } from './algorithms.js';
import type { Clock } from './clock.js';
import type { CompiledConfig } from './descriptor-trie.js';
import { algorithmIncrement, algorithmKeys } from './counter-key.js';
import type { RateLimitRequest } from './request.js';
import { Code, type DescriptorStatus, type HeaderValue, type RateLimitResponse } from './response.js';
import { OverLimitCache } from './over-limit-cache.js';
import { limitHeaders, type HeaderNames } from './response-headers.js';
import type { RateLimitRule } from './rule.js';
import { RequestMatcher, type DecisionReuse, type MatchedLimit } from './request-match.js';
import { overallCodeOf } from './overall-code.js';
import { addResponseExtras } from './response-extras.js';
import { type Unit, secondsUntilReset, windowStart } from './units.js';

export interface EngineSettings {
  nearLimitRatio: number;
  /** Global SHADOW_MODE: an OVER_LIMIT overall answer becomes OK. */
  shadowMode: boolean;
  cacheKeyPrefix: string;
  /** LIMIT_RESPONSE_HEADERS_ENABLED and the header names; undefined when disabled. */
  responseHeaders: HeaderNames | undefined;
  maxDescriptorsPerRequest: number;
  /** LOCAL_CACHE_SIZE_IN_BYTES of this thread's over-limit cache; 0 disables it. */
  localCacheSizeBytes: number;
  /** Upstream's STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT, for stores that can read first. */
  stopIncrementWhenOverLimit: boolean;
  /** Global QUOTA_MODE: every descriptor that is not unlimited is a quota descriptor. */
  quotaMode?: boolean;
  /** RESPONSE_DYNAMIC_METADATA: fill the answer's dynamic_metadata. */
  responseDynamicMetadata?: boolean;
  /** RESPONSE_LIMIT_POLICY (extension): name the limit that fired, and the policy header of /json. */
  responseLimitPolicy?: boolean;
}

export type Decision = RateLimitResponse | ServiceError;

/** How a front asks for a decision; `reuse` is kept by a front that decides the same request object again. */
export type Decide = (request: RateLimitRequest, reuse?: DecisionReuse) => Decision | Promise<Decision>;

const MAX_UINT32 = 4294967295;
const OK_NO_LIMIT: DescriptorStatus = Object.freeze({ code: Code.OK, limitRemaining: 0 });
const OK_UNLIMITED: DescriptorStatus = Object.freeze({ code: Code.OK, limitRemaining: MAX_UINT32 });
const NO_HEADERS: HeaderValue[] = Object.freeze([]) as unknown as HeaderValue[];

/** What one limit of a descriptor resolved to before counting. */
interface Limited {
  rule: RateLimitRule;
  stats: RuleStats;
  hits: number;
  /** Its counter; undefined when the local cache already knows it is over the limit (no store call). */
  increment: CounterIncrement | undefined;
  /** Index of its increment (and so of its count) in the plan's increments. */
  countAt: number;
  /** The descriptor's further limits (`rate_limits`), counted beside this one. */
  more: Limited[] | undefined;
}
type Resolved = Limited | 'unlimited' | undefined;

/** A request whose limits are resolved and whose counters are ready to be bumped. */
interface Plan {
  resolved: Resolved[];
  increments: CounterIncrement[];
  /** Some descriptor was answered from the local over-limit cache. */
  localCacheHit: boolean;
  now: number;
  request: RateLimitRequest;
  /** Milliseconds, read only when a limit counts by a sliding window or token bucket. */
  nowMs: number | undefined;
}

/**
 * The decision hot path (ShouldRateLimit): match descriptors against the compiled
 * configuration, count hits in the counter store and build the response. No I/O of its
 * own; the store is the only collaborator that may be asynchronous.
 */
export class RateLimitService {
  private config: CompiledConfig | undefined;
  private readonly serviceError: Counter;
  private readonly storeError: Counter;
  private readonly globalShadowMode: Counter;
  private readonly matcher: RequestMatcher;
  private readonly localCache: OverLimitCache | undefined;

  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly stats: StatsStore,
    private readonly ruleStats: RuleStatsFactory,
    private readonly settings: EngineSettings,
  ) {
    this.serviceError = stats.counter('ratelimit.service.call.should_rate_limit.service_error');
    this.storeError = stats.counter('ratelimit.service.call.should_rate_limit.redis_error');
    this.globalShadowMode = stats.counter('ratelimit.service.global_shadow_mode');
    this.matcher = new RequestMatcher(ruleStats, settings);
    this.localCache = settings.localCacheSizeBytes > 0 ? new OverLimitCache(settings.localCacheSizeBytes, stats) : undefined;
  }

  /** Swaps the configuration in one assignment, so no request sees half of one. */
  setConfig(config: CompiledConfig | undefined): void {
    this.config = config;
  }

  /** `reuse`: kept by a caller that decides the same request object again (see DecisionReuse). */
  shouldRateLimit(request: RateLimitRequest, reuse?: DecisionReuse): Decision | Promise<Decision> {
    const plan = this.plan(request, reuse);
    if (plan instanceof ServiceError) return plan;
    if (plan.increments.length === 0) return this.respond(plan, []);
    if (this.settings.stopIncrementWhenOverLimit && this.store.read !== undefined) return this.countStoppingOverLimit(plan);
    return this.count(plan, plan.increments);
  }

  /** Sends `sent` (the plan's increments, or the same keys with fewer hits) and answers from the counts. */
  private count(plan: Plan, sent: readonly CounterIncrement[]): Decision | Promise<Decision> {
    let counts: number[] | Promise<number[]>;
    try {
      counts = this.store.increment(sent);
    } catch (error) {
      return this.storeFailure(plan, error);
    }
    if (Array.isArray(counts)) return this.respond(plan, counts);
    return counts.then(
      (values) => this.respond(plan, values),
      (error: unknown) => this.storeFailure(plan, error),
    );
  }

  /**
   * STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT (upstream's Redis cache): once one key of the request
   * is over, the others are not consumed. A local-cache hit proves it without reading; otherwise
   * the current values are read first and only the keys that would pass their limit get their hits.
   * The answer is still computed with the request's hits, as upstream does.
   */
  private countStoppingOverLimit(plan: Plan): Decision | Promise<Decision> {
    if (plan.localCacheHit) return this.count(plan, plan.increments.map(withoutHits));
    let current: number[] | Promise<number[]>;
    try {
      current = (this.store.read as NonNullable<CounterStore['read']>)(plan.increments);
    } catch (error) {
      return this.storeFailure(plan, error);
    }
    const decide = (values: readonly number[]) => {
      const limits = limitsOf(plan);
      const exceeds = plan.increments.map((inc, j) => (values[j] as number) + inc.hits > (limits[j] as number));
      if (!exceeds.includes(true)) return this.count(plan, plan.increments);
      return this.count(plan, plan.increments.map((inc, j) => (exceeds[j] ? inc : withoutHits(inc))));
    };
    if (Array.isArray(current)) return decide(current);
    return current.then(decide, (error: unknown) => this.storeFailure(plan, error));
  }

  private serviceFailure(code: ServiceError['code'], message: string): ServiceError {
    this.serviceError.value++;
    return new ServiceError(code, message);
  }

  private storeFailure(plan: Plan, error: unknown): ServiceError {
    if (error instanceof CounterKeyError) {
      const refused = plan.increments[error.index];
      const descriptor = plan.resolved.findIndex(
        (r) => r !== undefined && r !== 'unlimited' && (r.increment === refused || r.more?.some((extra) => extra.increment === refused) === true),
      );
      return this.serviceFailure('RL_INVALID_CACHE_KEY', `descriptors[${descriptor}]: ${error.message}`);
    }
    this.storeError.value++;
    return new ServiceError('RL_STORE_ERROR', error instanceof Error ? error.message : String(error));
  }

  private plan(request: RateLimitRequest, reuse: DecisionReuse | undefined): Plan | ServiceError {
    if (request.domain === '') return this.serviceFailure('RL_EMPTY_DOMAIN', 'rate limit domain must not be empty');
    const descriptors = request.descriptors;
    if (descriptors.length === 0) {
      return this.serviceFailure('RL_NO_DESCRIPTORS', 'rate limit descriptor list must not be empty');
    }
    if (descriptors.length > this.settings.maxDescriptorsPerRequest) {
      return this.serviceFailure(
        'RL_TOO_MANY_DESCRIPTORS',
        `too many descriptors: ${descriptors.length} (MAX_DESCRIPTORS_PER_REQUEST is ${this.settings.maxDescriptorsPerRequest})`,
      );
    }
    const config = this.config;
    if (config === undefined) return this.serviceFailure('RL_NO_CONFIG', 'no rate limit configuration loaded');

    let matched = reuse?.matched;
    if (matched === undefined || matched.config !== config) {
      const fresh = this.matcher.match(request, config);
      if (fresh instanceof ServiceError) {
        this.serviceError.value++;
        return fresh;
      }
      matched = fresh;
      if (reuse !== undefined) reuse.matched = fresh;
    }
    if (!matched.domainFound) {
      this.stats.counter(`ratelimit.service.rate_limit.${request.domain}.domain_not_found`).value++;
    }

    const now = this.clock.nowSeconds();
    const resolved: Resolved[] = new Array(descriptors.length);
    const plan: Plan = { resolved, increments: [], localCacheHit: false, now, nowMs: undefined, request };
    for (let i = 0; i < matched.descriptors.length; i++) {
      const descriptorLimits = matched.descriptors[i];
      if (descriptorLimits === undefined) continue;
      if (descriptorLimits === 'unlimited') {
        resolved[i] = 'unlimited';
        continue;
      }
      const limited = this.limit(plan, descriptorLimits[0] as MatchedLimit);
      if (descriptorLimits.length > 1) {
        limited.more = [];
        for (let j = 1; j < descriptorLimits.length; j++) limited.more.push(this.limit(plan, descriptorLimits[j] as MatchedLimit));
      }
      resolved[i] = limited;
    }
    return plan;
  }

  /** One limit of a descriptor: its statistics counted, its counter added to the plan unless the local cache answers. */
  private limit(plan: Plan, matched: MatchedLimit): Limited {
    const { rule, stats, hits } = matched;
    stats.totalHits.value += hits;
    if (rule.algorithm !== Algorithm.FIXED_WINDOW) return this.algorithmLimit(plan, matched);
    const now = plan.now;
    const start = windowStart(now, rule.limit.unit);
    let increment = matched.increment;
    if (increment === undefined || increment.windowStart !== start) {
      // Every field set here, so the increments of all requests share one object shape.
      increment = { key: matched.keyBase + start, hits, unit: rule.limit.unit, windowStart: start, keyFingerprint: undefined };
      matched.increment = increment;
    }
    if (this.localCache !== undefined && this.localCache.isOverLimit(increment.key, now)) {
      plan.localCacheHit = true;
      return { rule, stats, hits, increment: undefined, countAt: -1, more: undefined };
    }
    plan.increments.push(increment);
    return { rule, stats, hits, increment, countAt: plan.increments.length - 1, more: undefined };
  }

  /**
   * A sliding window or token bucket limit. The local over-limit cache is not used: such a limit
   * stops being over before its window ends.
   */
  private algorithmLimit(plan: Plan, matched: MatchedLimit): Limited {
    const { rule, stats, hits } = matched;
    const nowMs = (plan.nowMs ??= this.clock.nowMilliseconds?.() ?? plan.now * 1000);
    const start = windowStart(Math.floor(nowMs / 1000), rule.limit.unit);
    let keys = matched.algorithmKeys;
    if (keys === undefined || keys.windowStart !== start) matched.algorithmKeys = keys = algorithmKeys(matched.keyBase, rule, start);
    const increment = algorithmIncrement(keys, rule, hits, nowMs);
    plan.increments.push(increment);
    return { rule, stats, hits, increment, countAt: plan.increments.length - 1, more: undefined };
  }

  private respond(plan: Plan, counts: readonly number[]): RateLimitResponse {
    const statuses: DescriptorStatus[] = new Array(plan.resolved.length);
    let overall = Code.OK;
    let quotaRules = false;
    for (let i = 0; i < plan.resolved.length; i++) {
      const resolved = plan.resolved[i];
      if (resolved === undefined) {
        statuses[i] = OK_NO_LIMIT;
      } else if (resolved === 'unlimited') {
        statuses[i] = OK_UNLIMITED;
      } else {
        if (resolved.rule.quotaMode === true) quotaRules = true;
        let status = this.statusOf(plan, resolved, counts);
        if (resolved.more !== undefined) for (const extra of resolved.more) status = mostConstraining(status, this.statusOf(plan, extra, counts));
        if (status.code === Code.OVER_LIMIT) overall = Code.OVER_LIMIT;
        statuses[i] = status;
      }
    }
    const quota = this.settings.quotaMode === true || quotaRules ? quotaFlags(plan, this.settings.quotaMode === true) : undefined;
    if (quota !== undefined) overall = overallCodeOf(statuses, quota);
    const headerNames = this.settings.responseHeaders;
    const response: RateLimitResponse = {
      overallCode: overall,
      statuses,
      responseHeadersToAdd: headerNames === undefined ? NO_HEADERS : limitHeaders(statuses, headerNames, plan.now, quota),
    };
    const dynamicMetadata = this.settings.responseDynamicMetadata === true;
    const limitPolicy = this.settings.responseLimitPolicy === true;
    if (dynamicMetadata || limitPolicy) {
      addResponseExtras(response, plan.request, Array.from(plan.resolved, countedRule), quota, { dynamicMetadata, limitPolicy });
    }
    if (overall === Code.OVER_LIMIT && this.settings.shadowMode) {
      response.overallCode = Code.OK;
      this.globalShadowMode.value++;
    }
    return response;
  }

  /** One limit's status from its count, its statistics counted. */
  private statusOf(plan: Plan, limited: Limited, counts: readonly number[]): DescriptorStatus {
    const { rule, stats, hits, increment } = limited;
    let code: Code;
    let limitRemaining = 0;
    let resetSeconds = secondsUntilReset(plan.now, rule.limit.unit);
    if (increment === undefined) {
      code = overFromLocalCache(hits, rule.shadowMode, stats);
    } else {
      const after = counts[limited.countAt] as number;
      const outcome = decide(rule.limit.requestsPerUnit, rule.nearLimitThreshold, hits, after, rule.shadowMode, stats);
      code = outcome.code;
      limitRemaining = outcome.limitRemaining;
      if (increment.algorithm !== undefined) {
        resetSeconds = algorithmResetSeconds(increment.algorithm, increment.unit, after, hits);
      } else if (after > rule.limit.requestsPerUnit && this.localCache !== undefined) {
        // Shadow rules too, as upstream: the cache records what the store said, not the answer.
        this.localCache.markOverLimit(increment.key, increment.windowStart + rule.unitSeconds, plan.now);
      }
    }
    return { code, currentLimit: rule.limit, limitRemaining, durationUntilResetSeconds: resetSeconds };
  }
}

/** The limit of each of the plan's increments, in order (only stop-increment needs them). */
function limitsOf(plan: Plan): number[] {
  const limits: number[] = new Array(plan.increments.length);
  const note = (limited: Limited) => {
    if (limited.increment !== undefined) limits[limited.countAt] = limited.rule.limit.requestsPerUnit;
  };
  for (const r of plan.resolved) {
    if (r === undefined || r === 'unlimited') continue;
    note(r);
    r.more?.forEach(note);
  }
  return limits;
}

/** The same counter read without consuming (hits 0). */
function withoutHits(increment: CounterIncrement): CounterIncrement {
  return { ...increment, hits: 0 };
}

/**
 * Of two limits of one descriptor, the one the answer reports: an over-limit one (the earlier
 * when both are), else the one with fewer requests remaining (the earlier on a tie).
 */
function mostConstraining(first: DescriptorStatus, second: DescriptorStatus): DescriptorStatus {
  if (first.code === Code.OVER_LIMIT) return first;
  if (second.code === Code.OVER_LIMIT) return second;
  return second.limitRemaining < first.limitRemaining ? second : first;
}

/** durationUntilReset of a sliding window (its current window's end) or a token bucket (until full). */
function algorithmResetSeconds(count: AlgorithmCount, unit: Unit, after: number, hits: number): number {
  if (count.algorithm === Algorithm.SLIDING_WINDOW) return secondsUntilReset(Math.floor(count.nowMs / 1000), unit);
  return tokenBucketSecondsUntilFull(after, count.limit, count.unitMs, hits, after <= count.limit);
}

/** A descriptor the local cache knows is over (as upstream): no near or within change. */
function overFromLocalCache(hits: number, shadowMode: boolean, stats: RuleStats): Code {
  stats.overLimit.value += hits;
  stats.overLimitWithLocalCache.value += hits;
  if (!shadowMode) return Code.OVER_LIMIT;
  stats.shadowMode.value += hits;
  return Code.OK;
}

/** The rule that counted a descriptor; undefined when none did (no match, unlimited, replaced). */
function countedRule(resolved: Resolved): RateLimitRule | undefined {
  return resolved === undefined || resolved === 'unlimited' ? undefined : resolved.rule;
}

/**
 * Which descriptors are quota descriptors: with global QUOTA_MODE every one that is not unlimited,
 * matched or not (as upstream); otherwise those whose rule has quota_mode.
 */
function quotaFlags(plan: Plan, global: boolean): boolean[] {
  // Array.from, not map: unmatched descriptors are holes in `resolved`, and map skips holes.
  return Array.from(plan.resolved, (r) => (global ? r !== 'unlimited' : countedRule(r)?.quotaMode === true));
}
