import { RE2JS } from 're2js';
import { sanitizeTagPart, type StatTag } from '../stat-tags.js';

/**
 * A rule of the tagged sink (upstream's DogStatsD mogrifiers): a statistic whose name matches
 * `pattern` (Go RE2, unanchored, as upstream's `FindStringSubmatch`) is sent under the name
 * template with tags, where `$0`, `$1`... stand for the match and its groups.
 */
export interface Mogrifier {
  readonly name: string;
  /** The name and tags for `statName`, or undefined when the pattern does not match. */
  apply(statName: string): { name: string; tags: StatTag[] } | undefined;
}

/** A mogrifier as configured: plain data, so settings can travel to other threads. */
export interface MogrifierSpec {
  name: string;
  pattern: string;
  nameTemplate: string;
  tags: StatTag[];
}

const GROUP_REFERENCE = /\$(\d+)/g;

function expand(template: string, groups: readonly string[]): string {
  return template.replace(GROUP_REFERENCE, (_, index: string) => groups[Number(index)] ?? '');
}

/** Throws (re2js' syntax error) when the pattern is not a valid RE2 expression. */
export function compileMogrifier(spec: MogrifierSpec): Mogrifier {
  const { name, nameTemplate, tags: tagTemplates } = spec;
  const re = RE2JS.compile(spec.pattern);
  return {
    name,
    apply(statName) {
      const matcher = re.matcher(statName);
      if (!matcher.find()) return undefined;
      const groups: string[] = [];
      for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? '');
      return {
        name: expand(nameTemplate, groups),
        tags: tagTemplates.map(([key, value]) => [key, sanitizeTagPart(expand(value, groups))] as const),
      };
    },
  };
}

/** The first mogrifier (in TAGGED_METRICSD_MOGRIFIERS order) that matches decides; none leaves the name. */
export function mogrify(mogrifiers: readonly Mogrifier[], statName: string): { name: string; tags: StatTag[] } {
  for (const mogrifier of mogrifiers) {
    const result = mogrifier.apply(statName);
    if (result !== undefined) return result;
  }
  return { name: statName, tags: [] };
}
