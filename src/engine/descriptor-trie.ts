import type { DescriptorRule, RateLimitConfig } from './rules-config.js';
import type { RuleStatsFactory } from '../observability/stats.js';
import type { DescriptorEntry } from './request.js';
import { nearLimitThreshold, type RateLimitRule } from './rule.js';
import { unitSeconds } from './units.js';
import { compileWildcard, isWildcard, type WildcardMatcher } from './wildcard.js';

/**
 * The configured rules of every domain as a trie with one level per descriptor entry.
 *
 *   domain "d" ─► level 0 { exact: { "k1_v1" ─► node, "k2" ─► node }, wildcards: [ "w_foo*" ─► node ] }
 *                                          node ─► { rule?, children: level 1 … }
 *
 * Upstream looks a request entry up as the string `key_value` in one map holding key+value
 * rules under `key_value` and key-only rules under `key`, so a request `a`+`b` also matches a
 * rule `a_b`. Building that string for every entry of every request costs a
 * concatenation, a flatten and a hash; instead each segment is also filed under every split
 * at an underscore (`a_b_c` as a→b_c and a_b→c) in `pairs`, which the request's own key and
 * value strings (hashed once, when first used) look up directly with the same result.
 */
export interface TrieNode {
  readonly rule: RateLimitRule | undefined;
  readonly children: TrieLevel | undefined;
}

export interface TrieLevel {
  /** Segment (`key_value` or a key-only `key`) → node: upstream's map, for key-only lookups. */
  readonly exact: ReadonlyMap<string, TrieNode>;
  /** Every segment split at each `_` into key → value → node: the `key_value` lookup without the string. */
  readonly pairs: ReadonlyMap<string, ReadonlyMap<string, TrieNode>>;
  readonly wildcards: ReadonlyArray<{ readonly match: WildcardMatcher; readonly node: TrieNode }>;
}

export interface CompiledConfig {
  readonly domains: ReadonlyMap<string, TrieLevel>;
}

export interface CompileOptions {
  nearLimitRatio: number;
  ruleStats: RuleStatsFactory;
}

export function compileConfig(config: RateLimitConfig, options: CompileOptions): CompiledConfig {
  const domains = new Map<string, TrieLevel>();
  for (const domain of config.domains) {
    domains.set(domain.domain, compileLevel(domain.descriptors, domain.domain, [], options));
  }
  return { domains };
}

/** `sharedValues`: the share_threshold patterns of the path so far, one slot per depth. */
function compileLevel(
  rules: readonly DescriptorRule[],
  parentKey: string,
  sharedValues: ReadonlyArray<string | undefined>,
  options: CompileOptions,
): TrieLevel {
  const exact = new Map<string, TrieNode>();
  const wildcards: Array<{ match: WildcardMatcher; node: TrieNode }> = [];
  for (const rule of rules) {
    const segment = rule.value === '' ? rule.key : `${rule.key}_${rule.value}`;
    const fullKey = `${parentKey}.${segment}`;
    const shared = [...sharedValues, rule.shareThreshold ? rule.value : undefined];
    const node: TrieNode = {
      rule: compileRule(rule, fullKey, shared, options),
      children: rule.descriptors.length > 0 ? compileLevel(rule.descriptors, fullKey, shared, options) : undefined,
    };
    if (isWildcard(rule.value)) wildcards.push({ match: compileWildcard(segment), node });
    else exact.set(segment, node);
  }
  return { exact, pairs: splitsOf(exact), wildcards };
}

function splitsOf(exact: ReadonlyMap<string, TrieNode>): Map<string, Map<string, TrieNode>> {
  const pairs = new Map<string, Map<string, TrieNode>>();
  for (const [segment, node] of exact) {
    for (let at = segment.indexOf('_'); at >= 0; at = segment.indexOf('_', at + 1)) {
      const key = segment.slice(0, at);
      let values = pairs.get(key);
      if (values === undefined) pairs.set(key, (values = new Map()));
      values.set(segment.slice(at + 1), node);
    }
  }
  return pairs;
}

function compileRule(
  rule: DescriptorRule,
  fullKey: string,
  sharedValues: ReadonlyArray<string | undefined>,
  options: CompileOptions,
): RateLimitRule | undefined {
  const policy = rule.rateLimit;
  if (policy === undefined) return undefined;
  return {
    fullKey,
    // Frozen: the same object answers every request of this configuration, so encoders may keep its encoding.
    limit: Object.freeze({ name: policy.name, requestsPerUnit: policy.requestsPerUnit, unit: policy.unit }),
    unitSeconds: unitSeconds(policy.unit),
    unlimited: policy.unlimited,
    shadowMode: rule.shadowMode,
    detailedMetric: rule.detailedMetric,
    replaces: policy.replaces,
    nearLimitThreshold: nearLimitThreshold(policy.requestsPerUnit, options.nearLimitRatio),
    stats: options.ruleStats.forKey(fullKey),
    sharedValues: sharedValues.some((v) => v !== undefined) ? sharedValues : undefined,
  };
}

/**
 * The rule for a request descriptor, matched at exact depth and most specific first:
 * `key_value`, then wildcards in configuration order, then key-only. Undefined means no
 * limit (no match, too deep, or a whitelisting rule without rate_limit).
 */
export function findRule(level: TrieLevel, entries: readonly DescriptorEntry[]): RateLimitRule | undefined {
  let current: TrieLevel | undefined = level;
  const last = entries.length - 1;
  for (let i = 0; i <= last && current !== undefined; i++) {
    const entry = entries[i] as DescriptorEntry;
    let node: TrieNode | undefined = current.pairs.get(entry.key)?.get(entry.value);
    if (node === undefined && current.wildcards.length > 0) {
      const keyValue = `${entry.key}_${entry.value}`;
      for (const wildcard of current.wildcards) {
        if (wildcard.match(keyValue)) {
          node = wildcard.node;
          break;
        }
      }
    }
    node ??= current.exact.get(entry.key);
    if (node === undefined) return undefined;
    if (i === last) return node.rule;
    current = node.children;
  }
  return undefined;
}
