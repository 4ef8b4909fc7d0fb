import type { DescriptorRule, RateLimitConfig } from '../config/model.js';
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
 * A level stores key+value rules under `key_value` and key-only rules under `key` in one map,
 * which reproduces upstream lookups exactly (including its `a` + `b` ~ `a_b` quirk, ref §2.3).
 */
export interface TrieNode {
  readonly rule: RateLimitRule | undefined;
  readonly children: TrieLevel | undefined;
}

export interface TrieLevel {
  readonly exact: ReadonlyMap<string, TrieNode>;
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
  return { exact, wildcards };
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
    limit: { name: policy.name, requestsPerUnit: policy.requestsPerUnit, unit: policy.unit },
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
    const keyValue = `${entry.key}_${entry.value}`;
    let node = current.exact.get(keyValue);
    if (node === undefined) {
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
