/**
 * Tags of a statistic, carried in its name the way upstream's gostats serialises them:
 * `name.__key=value`, one suffix per tag, sorted by key. The plain statsd sink sends names
 * as they are; the tagged sink and Prometheus split the suffixes back into tags and labels.
 */

export type StatTag = readonly [key: string, value: string];

const TAG_PREFIX = '.__';

/** Characters that would break a statsd line or the `.__k=v` encoding become `_` in tags. */
export function sanitizeTagPart(part: string): string {
  return part.replace(/[.:|,=#@\s]/g, '_');
}

/** The name without its tag suffixes, and the tags, in the order they appear. */
export function splitTags(name: string): { base: string; tags: StatTag[] } {
  const first = name.indexOf(TAG_PREFIX);
  if (first < 0) return { base: name, tags: [] };
  const tags: StatTag[] = [];
  for (const pair of name.slice(first + TAG_PREFIX.length).split(TAG_PREFIX)) {
    const eq = pair.indexOf('=');
    // Like upstream's tagged sink, a suffix without `=` is not a tag and is dropped.
    if (eq > 0) tags.push([pair.slice(0, eq), pair.slice(eq + 1)]);
  }
  return { base: name.slice(0, first), tags };
}

/** `base.__k=v...` with tags sorted by key. */
export function joinTags(base: string, tags: readonly StatTag[]): string {
  if (tags.length === 0) return base;
  const sorted = [...tags].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let name = base;
  for (const [key, value] of sorted) name += `${TAG_PREFIX}${key}=${value}`;
  return name;
}

/** A statistic's name with `extra` tags added; a tag the statistic has itself wins over an extra one. */
export function withExtraTags(name: string, extra: readonly StatTag[]): string {
  if (extra.length === 0) return name;
  const { base, tags } = splitTags(name);
  const own = new Set(tags.map(([key]) => key));
  return joinTags(base, [...tags, ...extra.filter(([key]) => !own.has(key))]);
}

/**
 * `k1:v1,k2:v2` (EXTRA_TAGS, a mogrifier's TAGS): split on `,`, then on the first `:`. Keys and
 * values are sanitised for the wire. Throws with a message naming the bad item.
 */
export function parseTagList(raw: string, options: { allowEmptyValue: boolean }): StatTag[] {
  const tags: StatTag[] = [];
  for (const item of raw.split(',')) {
    if (item.trim() === '') continue;
    const colon = item.indexOf(':');
    if (colon < 0) throw new Error(`invalid tag ${JSON.stringify(item)} (expected key:value)`);
    const key = item.slice(0, colon).trim();
    const value = item.slice(colon + 1).trim();
    if (key === '') throw new Error(`tag ${JSON.stringify(item)} has no key`);
    if (value === '' && !options.allowEmptyValue) throw new Error(`tag ${JSON.stringify(key)} has no value`);
    tags.push([sanitizeTagPart(key), sanitizeTagPart(value)]);
  }
  return tags;
}
