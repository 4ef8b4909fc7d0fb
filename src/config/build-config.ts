import { Algorithm, MAX_TOKEN_BUCKET_CAPACITY, parseAlgorithmName, parseUnitName, Unit, type DescriptorRule, type DomainConfig, type RateLimitConfig, type RateLimitPolicy } from '../engine/index.js';
import { failed, ok, type Result } from '../errors/index.js';
import { childFullKey } from './full-key.js';
import type { RawDescriptor, RawRateLimit, RawRoot } from './typed-decode.js';

/** A file that passed parsing and both decodes, waiting for the semantic checks. */
export interface DecodedSource {
  name: string;
  root: RawRoot;
}

export type BuildResult = Result<RateLimitConfig, 'CFG_INVALID'>;

/** The first semantic problem; thrown inside this module only, returned as a value. */
class SemanticError extends Error {}

/** A domain being built, with the composite keys already used at its top level. */
interface DomainState {
  config: DomainConfig;
  keys: Set<string>;
}

/**
 * Upstream's semantic checks (src/config/config_impl.go), file by file in order: domain,
 * duplicates, then each descriptor depth-first. With `mergeDomainConfigs` a repeated domain appends
 * its descriptors to the first file's, so a repeated top-level key is still a duplicate.
 */
export function buildConfig(sources: readonly DecodedSource[], mergeDomainConfigs: boolean): BuildResult {
  const domains = new Map<string, DomainState>();
  for (const source of sources) {
    try {
      addSource(domains, source, mergeDomainConfigs);
    } catch (error) {
      if (error instanceof SemanticError) return failed('CFG_INVALID', `${source.name}: ${error.message}`);
      throw error;
    }
  }
  return ok({ domains: [...domains.values()].map((d) => d.config) });
}

function addSource(domains: Map<string, DomainState>, source: DecodedSource, merge: boolean): void {
  const { domain, descriptors } = source.root;
  if (domain === '') throw new SemanticError('config file cannot have empty domain');
  let state = domains.get(domain);
  if (state !== undefined && !merge) throw new SemanticError(`duplicate domain '${domain}' in config file`);
  if (state === undefined) {
    state = { config: { domain, descriptors: [] }, keys: new Set() };
    domains.set(domain, state);
  }
  // A loop, not push(...spread): spreading 130,000 or more rules overflows the call stack.
  for (const rule of buildLevel(descriptors, domain, state.keys)) state.config.descriptors.push(rule);
}

/** One level of descriptors; `keys` holds the `key` / `key_value` segments already used there. */
function buildLevel(raws: readonly RawDescriptor[], parentKey: string, keys: Set<string>): DescriptorRule[] {
  return raws.map((raw) => {
    if (raw.key === '') throw new SemanticError('descriptor has empty key');
    const fullKey = childFullKey(parentKey, raw);
    // The level's last segment (`key` or `key_value`) is what must be unique there.
    const segment = fullKey.slice(parentKey.length + 1);
    if (keys.has(segment)) throw new SemanticError(`duplicate descriptor composite key '${fullKey}'`);
    keys.add(segment);
    if (raw.shareThreshold && !raw.value.includes('*')) {
      throw new SemanticError(
        `share_threshold can only be used with wildcard values (containing '*'), but found key '${segment}'`,
      );
    }
    if (raw.metadata?.ok === false) throw new SemanticError(`error parsing metadata: ${raw.metadata.error}`);
    const rule: DescriptorRule = {
      key: raw.key,
      value: raw.value,
      shadowMode: raw.shadowMode,
      detailedMetric: raw.detailedMetric,
      shareThreshold: raw.shareThreshold,
      descriptors: [],
    };
    // Only when set, so configurations without them are unchanged as threads receive them.
    if (raw.quotaMode) rule.quotaMode = true;
    if (raw.valueToMetric) rule.valueToMetric = true;
    if (raw.metadata?.ok === true) rule.metadata = raw.metadata.value;
    // The limit is checked before the children: that decides which error a file reports first.
    if (raw.rateLimit !== undefined) rule.rateLimit = buildPolicy(raw.rateLimit);
    if (raw.rateLimits !== undefined && raw.rateLimits.length > 0) addMoreLimits(rule, raw.rateLimits.map(buildPolicy), segment);
    rule.descriptors = buildLevel(raw.descriptors, fullKey, new Set());
    return rule;
  });
}

function buildPolicy(raw: RawRateLimit): RateLimitPolicy {
  const parsed = parseUnitName(raw.unit);
  const validUnit = parsed !== undefined && parsed !== Unit.UNKNOWN;
  if (raw.unlimited && validUnit) throw new SemanticError('should not specify rate limit unit when unlimited');
  if (!raw.unlimited && !validUnit) throw new SemanticError(`invalid rate limit unit '${raw.unit}'`);
  for (const { name } of raw.replaces) {
    if (name === '') throw new SemanticError('should not have an empty replaces entry');
    if (name === raw.name) throw new SemanticError('replaces should not contain name of same descriptor');
  }
  const algorithm = buildAlgorithm(raw);
  return {
    ...(algorithm === undefined ? {} : { algorithm }),
    // An unlimited rule with an invalid unit name is accepted upstream; its unit is UNKNOWN.
    unit: validUnit ? parsed : Unit.UNKNOWN,
    requestsPerUnit: raw.requestsPerUnit,
    unlimited: raw.unlimited,
    name: raw.name,
    replaces: raw.replaces.map((r) => r.name),
  };
}

/** Extension: `algorithm` of a limit; absent or fixed_window leaves the policy as upstream's. */
function buildAlgorithm(raw: RawRateLimit): Algorithm | undefined {
  if (raw.algorithm === undefined || raw.algorithm === '') return undefined;
  const algorithm = parseAlgorithmName(raw.algorithm);
  if (algorithm === undefined) {
    throw new SemanticError(`invalid rate limit algorithm '${raw.algorithm}' (fixed_window, sliding_window or token_bucket)`);
  }
  if (algorithm === Algorithm.FIXED_WINDOW) return undefined;
  if (raw.unlimited) throw new SemanticError(`an unlimited rate limit cannot have algorithm '${raw.algorithm}'`);
  if (algorithm === Algorithm.TOKEN_BUCKET && raw.requestsPerUnit > MAX_TOKEN_BUCKET_CAPACITY) {
    throw new SemanticError(`token_bucket requests_per_unit ${raw.requestsPerUnit} is above ${MAX_TOKEN_BUCKET_CAPACITY}`);
  }
  return algorithm;
}

/**
 * Extension: `rate_limits`, further limits of one descriptor. Without `rate_limit` the first of
 * them is the descriptor's first limit (upstream's cache key and statistics).
 */
function addMoreLimits(rule: DescriptorRule, limits: RateLimitPolicy[], segment: string): void {
  if (rule.rateLimit?.unlimited === true) throw new SemanticError(`descriptor '${segment}': an unlimited rate_limit cannot have rate_limits`);
  for (const [i, limit] of limits.entries()) {
    if (limit.unlimited) throw new SemanticError(`descriptor '${segment}': rate_limits[${i}] cannot be unlimited`);
    if (limit.replaces.length > 0) throw new SemanticError(`descriptor '${segment}': rate_limits[${i}] cannot have replaces (only the first limit can)`);
  }
  const all = rule.rateLimit === undefined ? limits : [rule.rateLimit, ...limits];
  rule.rateLimit = all[0];
  if (all.length > 1) rule.moreLimits = all.slice(1);
}
