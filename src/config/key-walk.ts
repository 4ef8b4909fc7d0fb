import { isGoInt, describe, type YamlMap, type YamlNode } from '../yaml/index.js';

/**
 * Every key allowed anywhere in a configuration file (upstream's config_impl.go). The check is
 * position-agnostic, as upstream's: a valid key in the wrong place passes here and is ignored by
 * the typed decode.
 *
 * value_to_metric, quota_mode, metadata and share_threshold are upstream features newer than our
 * spec; all are implemented (typed-decode.ts reads them).
 */
const VALID_KEYS: ReadonlySet<string> = new Set([
  'domain',
  'key',
  'value',
  'descriptors',
  'rate_limit',
  'unit',
  'requests_per_unit',
  'unlimited',
  'shadow_mode',
  'quota_mode',
  'name',
  'replaces',
  'detailed_metric',
  'value_to_metric',
  'share_threshold',
  'metadata',
  // Extensions (README, "Beyond upstream"); ratelimit-config-check -strict-upstream refuses them.
  'rate_limits',
  'algorithm',
]);

/** The keys above that upstream does not know, for ratelimit-config-check -strict-upstream. */
export const EXTENSION_KEYS: ReadonlySet<string> = new Set(['rate_limits', 'algorithm']);

/** Upstream does not look inside `metadata` (free-form data for dynamic metadata). */
const UNCHECKED_KEY = 'metadata';

/**
 * Upstream's first validation phase over the generic decode of a file: every key a known
 * string, every list a list of maps, every leaf a string, int, bool or null. Returns the first
 * problem's message, or undefined.
 */
export function checkKeys(root: YamlMap): string | undefined {
  for (const { key, value } of root.entries) {
    if (key.kind !== 'scalar' || typeof key.value !== 'string') {
      return `config error, key is not of type string: ${describe(key)}`;
    }
    if (!VALID_KEYS.has(key.value)) return `config error, unknown key '${key.value}'`;
    if (key.value === UNCHECKED_KEY) continue;
    const problem = checkValue(value);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkValue(node: YamlNode): string | undefined {
  switch (node.kind) {
    case 'map':
      return checkKeys(node);
    case 'seq':
      for (const item of node.items) {
        if (item.kind !== 'map') return `config error, yaml file contains list of type other than map: ${describe(item)}`;
        const problem = checkKeys(item);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'scalar': {
      const { value } = node;
      const leaf = value === null || typeof value === 'string' || typeof value === 'boolean' || isGoInt(value);
      // Floats and integers beyond int64 (Go's float64 and uint64) are not accepted leaves.
      return leaf ? undefined : 'error checking config';
    }
  }
}
