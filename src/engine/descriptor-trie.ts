import { Algorithm } from './algorithms.js';
import type { DescriptorRule, RateLimitConfig, RateLimitPolicy } from './rules-config.js';
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
}

export function compileConfig(config: RateLimitConfig, options: CompileOptions): CompiledConfig {
  const compiler = new ConfigCompiler(options);
  for (const domain of config.domains) compiler.add(domain.domain, domain.descriptors);
  return compiler.finish();
}

/**
 * Builds a CompiledConfig a slice of rules at a time, so a thread that answers decisions can
 * compile a large configuration between requests: `add` the top-level rules of a domain in as many
 * slices as wanted (a domain's slices in order), then `finish`.
 */
export class ConfigCompiler {
  private readonly domains = new Map<string, LevelBuilder>();

  constructor(private readonly options: CompileOptions) {}

  add(domain: string, rules: readonly DescriptorRule[]): void {
    let level = this.domains.get(domain);
    if (level === undefined) this.domains.set(domain, (level = new LevelBuilder(domain, [], this.options)));
    for (const rule of rules) level.add(rule);
  }

  finish(): CompiledConfig {
    const domains = new Map<string, TrieLevel>();
    for (const [domain, level] of this.domains) domains.set(domain, level.level);
    return { domains };
  }
}

/**
 * One level of the trie, rule by rule. Its `pairs` index is filled as each rule arrives rather
 * than computed over the whole level at the end, which would be one long step for a level of
 * 200,000 rules.
 */
class LevelBuilder {
  readonly level: { exact: Map<string, TrieNode>; pairs: Map<string, Map<string, TrieNode>>; wildcards: Array<{ match: WildcardMatcher; node: TrieNode }> } = {
    exact: new Map(),
    pairs: new Map(),
    wildcards: [],
  };

  /**
   * `sharedValues`: the share_threshold patterns of the path so far, one slot per depth.
   * `metricPath`: the path's statistics key segments so far, undefined where value_to_metric puts
   * the request's value.
   */
  constructor(
    private readonly parentKey: string,
    private readonly sharedValues: ReadonlyArray<string | undefined>,
    private readonly options: CompileOptions,
    private readonly metricPath: ReadonlyArray<string | undefined> = [],
  ) {}

  add(rule: DescriptorRule): void {
    const segment = rule.value === '' ? rule.key : `${rule.key}_${rule.value}`;
    const fullKey = `${this.parentKey}.${segment}`;
    const shared = [...this.sharedValues, rule.shareThreshold ? rule.value : undefined];
    const metricPath = [...this.metricPath, rule.valueToMetric === true ? undefined : segment];
    let children: TrieLevel | undefined;
    if (rule.descriptors.length > 0) {
      const child = new LevelBuilder(fullKey, shared, this.options, metricPath);
      for (const nested of rule.descriptors) child.add(nested);
      children = child.level;
    }
    const node: TrieNode = { rule: compileRule(rule, fullKey, shared, this.options, metricPath), children };
    if (isWildcard(rule.value)) {
      this.level.wildcards.push({ match: compileWildcard(segment), node });
      return;
    }
    this.level.exact.set(segment, node);
    for (let at = segment.indexOf('_'); at >= 0; at = segment.indexOf('_', at + 1)) {
      const key = segment.slice(0, at);
      let values = this.level.pairs.get(key);
      if (values === undefined) this.level.pairs.set(key, (values = new Map()));
      values.set(segment.slice(at + 1), node);
    }
  }
}

function compileRule(
  rule: DescriptorRule,
  fullKey: string,
  sharedValues: ReadonlyArray<string | undefined>,
  options: CompileOptions,
  metricPath: ReadonlyArray<string | undefined>,
): RateLimitRule | undefined {
  const policy = rule.rateLimit;
  if (policy === undefined) return undefined;
  const shared = sharedValues.some((v) => v !== undefined) ? sharedValues : undefined;
  // The nth limit of a descriptor (n >= 2) has its own statistics and counter: `.limit_n`, `#n_`.
  const more = rule.moreLimits?.map((extra, i) => compileLimit(rule, extra, `${fullKey}.limit_${i + 2}`, `#${i + 2}_`, shared, undefined, options, metricPath));
  return compileLimit(rule, policy, fullKey, '', shared, more, options, metricPath);
}

function compileLimit(
  rule: DescriptorRule,
  policy: RateLimitPolicy,
  fullKey: string,
  keySuffix: string,
  sharedValues: ReadonlyArray<string | undefined> | undefined,
  more: readonly RateLimitRule[] | undefined,
  options: CompileOptions,
  metricPath: ReadonlyArray<string | undefined>,
): RateLimitRule {
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
    stats: undefined,
    sharedValues,
    algorithm: policy.algorithm ?? Algorithm.FIXED_WINDOW,
    more,
    keySuffix,
    ...ruleExtras(rule, metricPath),
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

/** The optional parts of a compiled rule, present only when the configuration uses them. */
function ruleExtras(rule: DescriptorRule, metricPath: ReadonlyArray<string | undefined>): Partial<RateLimitRule> {
  const extras: { -readonly [K in keyof RateLimitRule]?: RateLimitRule[K] } = {};
  if (rule.quotaMode === true) extras.quotaMode = true;
  if (rule.metadata !== undefined) extras.metadata = rule.metadata;
  if (metricPath.includes(undefined)) extras.metricSegments = metricPath;
  return extras;
}
