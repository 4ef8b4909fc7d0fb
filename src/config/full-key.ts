/**
 * A rule's FullKey (upstream's stats key): the domain, then each level's `key` or `key_value` as
 * written in the configuration, joined by `.`. Used in duplicate-key errors and in `/rlconfig`.
 */
export function childFullKey(parentKey: string, rule: { key: string; value: string }): string {
  return `${parentKey}.${rule.value === '' ? rule.key : `${rule.key}_${rule.value}`}`;
}
