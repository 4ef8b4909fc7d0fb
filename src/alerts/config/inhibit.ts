import type { YamlNode } from '../../yaml/index.js';
import { formatMatcher, goQuote, isUtf8LabelName, newMatcher, type Matcher } from '../matchers/index.js';
import type { Decoder } from './decode-context.js';
import type { InhibitRule } from './model.js';
import { checkMatchNames, decodeMatchers, decodeMatchRegexps } from './route.js';
import { map, seq, sortedMap, str, type YamlOut } from './yaml-emit.js';

/** One inhibition rule as written (Alertmanager's config.InhibitRule). */
export interface InhibitRuleSpec {
  name: string;
  sourceMatch: Array<[string, string]> | undefined;
  sourceMatchRe: Array<[string, string]> | undefined;
  sourceMatchers: Matcher[] | undefined;
  targetMatch: Array<[string, string]> | undefined;
  targetMatchRe: Array<[string, string]> | undefined;
  targetMatchers: Matcher[] | undefined;
  equal: string[] | undefined;
}

function emptyRule(): InhibitRuleSpec {
  return {
    name: '',
    sourceMatch: undefined,
    sourceMatchRe: undefined,
    sourceMatchers: undefined,
    targetMatch: undefined,
    targetMatchRe: undefined,
    targetMatchers: undefined,
    equal: undefined,
  };
}

/** An entry of `inhibit_rules`; a null entry is an empty rule (it inhibits nothing). */
export function decodeInhibitRule(d: Decoder, node: YamlNode): InhibitRuleSpec {
  const r = emptyRule();
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        name: (v) => (r.name = d.string(v) ?? ''),
        source_match: (v) => (r.sourceMatch = d.stringMap(v)),
        source_match_re: (v) => (r.sourceMatchRe = decodeMatchRegexps(d, v)),
        source_matchers: (v) => (r.sourceMatchers = decodeMatchers(d, v)),
        target_match: (v) => (r.targetMatch = d.stringMap(v)),
        target_match_re: (v) => (r.targetMatchRe = decodeMatchRegexps(d, v)),
        target_matchers: (v) => (r.targetMatchers = decodeMatchers(d, v)),
        equal: (v) => (r.equal = d.stringList(v)),
      });
      return r;
    },
    (rule) => {
      checkMatchNames(d, rule.sourceMatch);
      checkMatchNames(d, rule.targetMatch);
      for (const name of rule.equal ?? []) if (!isUtf8LabelName(name)) d.fail(`invalid label name ${goQuote(name)} in equal list`);
    },
  );
}

/** `*_match` as equality, `*_match_re` anchored, then `*_matchers`, as Alertmanager combines them. */
function combined(match: Array<[string, string]> | undefined, matchRe: Array<[string, string]> | undefined, matchers: Matcher[] | undefined): Matcher[] {
  const out: Matcher[] = [];
  for (const [name, value] of match ?? []) {
    const m = newMatcher(name, '=', value);
    if (m.ok) out.push(m.value);
  }
  for (const [name, pattern] of matchRe ?? []) {
    const m = newMatcher(name, '=~', `^(?:${pattern})$`);
    if (m.ok) out.push(m.value);
  }
  return [...out, ...(matchers ?? [])];
}

export function buildInhibitRule(r: InhibitRuleSpec): InhibitRule {
  return {
    name: r.name,
    sourceMatchers: combined(r.sourceMatch, r.sourceMatchRe, r.sourceMatchers),
    targetMatchers: combined(r.targetMatch, r.targetMatchRe, r.targetMatchers),
    equal: r.equal ?? [],
  };
}

/** The rule as Alertmanager 0.25 prints it (`name`, newer, left out). */
export function inhibitRuleOut(r: InhibitRuleSpec): YamlOut {
  const entries: Array<[string, YamlOut]> = [];
  const pairs = (key: string, value: Array<[string, string]> | undefined): void => {
    if (value !== undefined && value.length > 0) entries.push([key, sortedMap(value.map(([k, v]) => [k, str(v)]))]);
  };
  const list = (key: string, value: Matcher[] | undefined): void => {
    if (value !== undefined && value.length > 0) entries.push([key, seq(value.map((m) => str(formatMatcher(m))))]);
  };
  pairs('source_match', r.sourceMatch);
  pairs('source_match_re', r.sourceMatchRe);
  list('source_matchers', r.sourceMatchers);
  pairs('target_match', r.targetMatch);
  pairs('target_match_re', r.targetMatchRe);
  list('target_matchers', r.targetMatchers);
  if (r.equal !== undefined && r.equal.length > 0) entries.push(['equal', seq(r.equal.map(str))]);
  return map(entries);
}
