import { unitName, type DescriptorRule, type RateLimitConfig } from '../engine/index.js';
import { childFullKey } from './full-key.js';

/**
 * The debug server's `/rlconfig` body: one line per rule that has a rate_limit,
 * `<fullKey>: unit=<UNIT> requests_per_unit=<n>, shadow_mode: <bool>, quota_mode: <bool>`, as
 * upstream prints it since quota mode (2026-01). Upstream prints in Go map order (random); we use
 * config order, a rule before its children. An unlimited rule prints `unit=UNKNOWN`.
 */
export function dumpConfig(config: RateLimitConfig): string {
  const lines: string[] = [];
  for (const domain of config.domains) dumpRules(domain.descriptors, domain.domain, lines);
  return lines.join('');
}

function dumpRules(rules: readonly DescriptorRule[], parentKey: string, lines: string[]): void {
  for (const rule of rules) {
    const fullKey = childFullKey(parentKey, rule);
    const limit = rule.rateLimit;
    if (limit !== undefined) {
      lines.push(
        `${fullKey}: unit=${unitName(limit.unit)} requests_per_unit=${limit.requestsPerUnit}, ` +
          `shadow_mode: ${rule.shadowMode}, quota_mode: ${rule.quotaMode === true}\n`,
      );
    }
    // Extension: a descriptor's further limits (`rate_limits`), under their statistics keys.
    rule.moreLimits?.forEach((extra, i) =>
      lines.push(`${fullKey}.limit_${i + 2}: unit=${unitName(extra.unit)} requests_per_unit=${extra.requestsPerUnit}, shadow_mode: ${rule.shadowMode}\n`),
    );
    dumpRules(rule.descriptors, fullKey, lines);
  }
}
