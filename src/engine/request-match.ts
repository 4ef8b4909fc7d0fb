import { ServiceError } from '../errors/index.js';
import type { RuleStats, RuleStatsFactory } from '../observability/stats.js';
import { Algorithm } from './algorithms.js';
import type { CounterIncrement } from './counter-store.js';
import { cacheKeyBase, type AlgorithmKeys } from './counter-key.js';
import { findRule, type CompiledConfig, type TrieLevel } from './descriptor-trie.js';
import type { RateLimitRequest, RequestDescriptor } from './request.js';
import { nearLimitThreshold, type RateLimitRule } from './rule.js';
import { statsFor } from './stats-key.js';
import { Unit, unitSeconds } from './units.js';

/** One limit a descriptor matched: what every repeat of the request counts the same way. */
export interface MatchedLimit {
  readonly rule: RateLimitRule;
  readonly stats: RuleStats;
  readonly hits: number;
  /** The cache key without its window start (cacheKeyBase). */
  readonly keyBase: string;
  /**
   * The fixed-window counter of the latest window this limit counted in. A repeat of the request
   * in the same window sends the same object, whose key is already built and hashed. Stores only
   * read increments, so one object may be in several requests at once.
   */
  increment: CounterIncrement | undefined;
  /** A sliding window's or token bucket's keys in the latest window it counted in, for repeats within it. */
  algorithmKeys: AlgorithmKeys | undefined;
}

/** A descriptor's limits (the rule's, then its further `rate_limits`), `unlimited`, or undefined (no rule). */
export type MatchedDescriptor = readonly MatchedLimit[] | 'unlimited' | undefined;

/** A request's descriptors matched against one configuration. */
export interface MatchedRequest {
  readonly config: CompiledConfig;
  readonly domainFound: boolean;
  readonly descriptors: readonly MatchedDescriptor[];
}

/**
 * A request that will be decided again, unchanged (the `/json` and gRPC fronts keep one per kept
 * request, see RepeatedRequests): its match is kept here while the configuration stays, so a repeat skips the trie walk,
 * the statistics lookup and building its cache keys. The request it was made for must not change.
 */
export class DecisionReuse {
  matched: MatchedRequest | undefined = undefined;
}

export interface MatchSettings {
  nearLimitRatio: number;
  cacheKeyPrefix: string;
}

/** Matches request descriptors to the limits of a compiled configuration. */
export class RequestMatcher {
  /** Reused across calls: match() runs to completion before the next one starts. */
  private readonly rulesScratch: Array<RateLimitRule | undefined> = [];

  constructor(
    private readonly ruleStats: RuleStatsFactory,
    private readonly settings: MatchSettings,
  ) {}

  /** The request's limits under `config`; a ServiceError for an invalid limit override. */
  match(request: RateLimitRequest, config: CompiledConfig): MatchedRequest | ServiceError {
    const descriptors = request.descriptors;
    const level = config.domains.get(request.domain);
    // Only indices below descriptors.length are read, so stale entries past them do no harm (and
    // setting `length` each time costs more than the whole lookup).
    const rules = this.rulesScratch;
    let replaced: Set<string> | undefined;
    for (let i = 0; i < descriptors.length; i++) {
      const rule = level === undefined ? undefined : this.ruleOf(request.domain, level, descriptors[i] as RequestDescriptor);
      if (rule instanceof ServiceError) return new ServiceError(rule.code, `descriptors[${i}].${rule.message}`);
      if (rule !== undefined && rule.replaces.length > 0) {
        replaced ??= new Set();
        for (const name of rule.replaces) replaced.add(name);
      }
      rules[i] = rule;
    }
    const matched: MatchedDescriptor[] = new Array(descriptors.length);
    const requestHits = Math.max(1, request.hitsAddend);
    for (let i = 0; i < descriptors.length; i++) {
      const rule = rules[i];
      if (rule === undefined) continue;
      if (rule.unlimited) {
        matched[i] = 'unlimited';
        continue;
      }
      if (replaced !== undefined && rule.limit.name !== '' && replaced.has(rule.limit.name)) continue;
      const descriptor = descriptors[i] as RequestDescriptor;
      const hits = descriptor.hitsAddend ?? requestHits;
      const first = this.limit(request.domain, descriptor, rule, hits);
      matched[i] = rule.more === undefined ? [first] : [first, ...rule.more.map((extra) => this.limit(request.domain, descriptor, extra, hits))];
    }
    return { config, domainFound: level !== undefined, descriptors: matched };
  }

  private ruleOf(domain: string, level: TrieLevel, descriptor: RequestDescriptor): RateLimitRule | undefined | ServiceError {
    if (descriptor.limit === undefined) return findRule(level, descriptor.entries);
    if (descriptor.limit.unit === Unit.UNKNOWN || unitSeconds(descriptor.limit.unit) === 0) {
      return new ServiceError('RL_INVALID_LIMIT_OVERRIDE', 'limit: unit must be SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR, not UNKNOWN');
    }
    return this.overrideRule(domain, descriptor);
  }

  private limit(domain: string, descriptor: RequestDescriptor, rule: RateLimitRule, hits: number): MatchedLimit {
    return {
      rule,
      stats: statsFor(this.ruleStats, domain, rule, descriptor),
      hits,
      keyBase: cacheKeyBase(this.settings.cacheKeyPrefix, domain, descriptor.entries, rule),
      increment: undefined,
      algorithmKeys: undefined,
    };
  }

  /**
   * A caller's limit override, as upstream: no shadow, unlimited or replaces. Unlike upstream its
   * statistics are keyed by the entry keys only (`domain.key1.key2`), not by every value: values
   * come from the request, and one set of six counters per distinct value grows without end.
   */
  private overrideRule(domain: string, descriptor: RequestDescriptor): RateLimitRule {
    const override = descriptor.limit as NonNullable<RequestDescriptor['limit']>;
    let fullKey = domain;
    for (const entry of descriptor.entries) fullKey += '.' + entry.key;
    return {
      fullKey,
      limit: { name: '', requestsPerUnit: override.requestsPerUnit, unit: override.unit },
      unitSeconds: unitSeconds(override.unit),
      unlimited: false,
      shadowMode: false,
      detailedMetric: false,
      replaces: [],
      nearLimitThreshold: nearLimitThreshold(override.requestsPerUnit, this.settings.nearLimitRatio),
      stats: undefined,
      sharedValues: undefined,
      algorithm: Algorithm.FIXED_WINDOW,
      more: undefined,
      keySuffix: '',
    };
  }
}
