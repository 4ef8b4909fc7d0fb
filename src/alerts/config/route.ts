import type { YamlNode } from '../../yaml/index.js';
import { formatMatcher, formatMatchers, goQuote, isLegacyLabelName, isUtf8LabelName, newMatcher, parseMatchersList, sortMatchers, type Matcher } from '../matchers/index.js';
import { isNull, type Decoder } from './decode-context.js';
import { formatDuration, parseDuration } from './duration.js';
import type { Route } from './model.js';
import { lit, map, seq, sortedMap, str, type YamlOut } from './yaml-emit.js';

/** A route node as written (Alertmanager's config.Route), before inheritance. */
export interface RouteSpec {
  receiver: string;
  groupByStr: string[] | undefined;
  groupBy: string[];
  groupByAll: boolean;
  match: Array<[string, string]> | undefined;
  /** Patterns as written (printing shows them so); matching anchors them. */
  matchRe: Array<[string, string]> | undefined;
  matchers: Matcher[] | undefined;
  muteTimeIntervals: string[] | undefined;
  activeTimeIntervals: string[] | undefined;
  continue: boolean;
  routes: RouteSpec[];
  groupWaitMs: number | undefined;
  groupIntervalMs: number | undefined;
  repeatIntervalMs: number | undefined;
  labels: Array<[string, string]> | undefined;
}

/** A model.Duration field: a string, then model.ParseDuration (its error ends the load). */
function duration(d: Decoder, node: YamlNode): number | undefined {
  const text = d.string(node);
  if (text === undefined) return undefined;
  const parsed = parseDuration(text);
  if (!parsed.ok) d.fail(parsed.error);
  return parsed.ms;
}

/** `match_re` (config.MatchRegexps): each pattern compiled anchored, as Alertmanager's Regexp. */
export function decodeMatchRegexps(d: Decoder, node: YamlNode): Array<[string, string]> | undefined {
  // A null pattern is kept as null until the check that refuses it.
  const entries = d.withChecks(
    () =>
      d.mapOf<string | null>(node, 'config.plain', (v) => {
        if (isNull(v)) return null;
        const pattern = d.string(v);
        if (pattern === undefined) return undefined;
        const m = newMatcher('', '=~', pattern);
        if (!m.ok) d.fail(m.error);
        return pattern;
      }),
    (decoded) => {
      for (const [name, pattern] of decoded ?? []) {
        if (!isLegacyLabelName(name)) d.fail(`invalid label name ${goQuote(name)}`);
        if (pattern === null) d.fail(`invalid regexp value for ${goQuote(name)}`);
      }
    },
  );
  return entries?.filter((e): e is [string, string] => e[1] !== null);
}

/** `matchers` (config.Matchers): each entry parsed as a list, all of them sorted. */
export function decodeMatchers(d: Decoder, node: YamlNode): Matcher[] | undefined {
  const lines = d.stringList(node);
  if (lines === undefined) return undefined;
  const all: Matcher[] = [];
  for (const line of lines) {
    const parsed = parseMatchersList(line);
    if (!parsed.ok) d.fail(parsed.error);
    all.push(...parsed.value);
  }
  return sortMatchers(all);
}

/** Names in `match` and `source_match`/`target_match` must be classic label names. */
export function checkMatchNames(d: Decoder, entries: ReadonlyArray<readonly [string, unknown]> | undefined): void {
  for (const [name] of entries ?? []) if (!isLegacyLabelName(name)) d.fail(`invalid label name ${goQuote(name)}`);
}

export function decodeRoute(d: Decoder, node: YamlNode): RouteSpec {
  const r: RouteSpec = {
    receiver: '',
    groupByStr: undefined,
    groupBy: [],
    groupByAll: false,
    match: undefined,
    matchRe: undefined,
    matchers: undefined,
    muteTimeIntervals: undefined,
    activeTimeIntervals: undefined,
    continue: false,
    routes: [],
    groupWaitMs: undefined,
    groupIntervalMs: undefined,
    repeatIntervalMs: undefined,
    labels: undefined,
  };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        receiver: (v) => (r.receiver = d.string(v) ?? ''),
        group_by: (v) => (r.groupByStr = d.stringList(v)),
        match: (v) => (r.match = d.stringMap(v)),
        match_re: (v) => (r.matchRe = decodeMatchRegexps(d, v)),
        matchers: (v) => (r.matchers = decodeMatchers(d, v)),
        mute_time_intervals: (v) => (r.muteTimeIntervals = d.stringList(v)),
        active_time_intervals: (v) => (r.activeTimeIntervals = d.stringList(v)),
        continue: (v) => (r.continue = d.bool(v) ?? false),
        routes: (v) => {
          // A null child would crash Alertmanager's router; it is left out here.
          const children = d.list(v, '[]*config.Route', (item) => (isNull(item) ? undefined : decodeRoute(d, item)));
          r.routes = (children ?? []).filter((c): c is RouteSpec => c !== undefined);
        },
        group_wait: (v) => (r.groupWaitMs = duration(d, v)),
        group_interval: (v) => (r.groupIntervalMs = duration(d, v)),
        repeat_interval: (v) => (r.repeatIntervalMs = duration(d, v)),
        labels: (v) => (r.labels = d.stringMap(v)),
      });
      return r;
    },
    (route) => checkRoute(d, route),
  );
}

/** Route.UnmarshalYAML's checks, in its order. */
function checkRoute(d: Decoder, r: RouteSpec): void {
  checkMatchNames(d, r.match);
  for (const name of r.groupByStr ?? []) {
    if (name === '...') r.groupByAll = true;
    else if (!isUtf8LabelName(name)) d.fail(`invalid label name ${goQuote(name)} in group_by list`);
    else r.groupBy.push(name);
  }
  if (r.groupBy.length > 0 && r.groupByAll) d.fail('cannot have wildcard group_by (`...`) and other labels at the same time');
  const seen = new Set<string>();
  for (const name of r.groupBy) {
    if (seen.has(name)) d.fail(`duplicated label ${goQuote(name)} in group_by`);
    seen.add(name);
  }
  if (r.groupIntervalMs === 0) d.fail('group_interval cannot be zero');
  if (r.repeatIntervalMs === 0) d.fail('repeat_interval cannot be zero');
}

/** Whether any node of the tree refers to `pick`'s names; the first unknown one, depth first. */
export function firstUndefined(r: RouteSpec, pick: (r: RouteSpec) => readonly string[], known: ReadonlySet<string>): string | undefined {
  for (const child of r.routes) {
    const found = firstUndefined(child, pick, known);
    if (found !== undefined) return found;
  }
  return pick(r).find((name) => !known.has(name));
}

const ROOT_OPTIONS = { receiver: '', groupBy: [] as string[], groupByAll: false, groupWaitMs: 30_000, groupIntervalMs: 300_000, repeatIntervalMs: 14_400_000 };

/**
 * The routing tree with every option resolved, as Alertmanager's dispatch.NewRoute builds it:
 * receiver, group_by and the timers inherited; `match`, `match_re` (anchored) and `matchers`
 * combined and sorted; time intervals not inherited; `labels` merged parent to child.
 */
export function buildRoute(spec: RouteSpec, parent: Route | undefined): Route {
  const inherited = parent ?? { ...ROOT_OPTIONS, key: '', labels: {} };
  let groupBy = inherited.groupBy;
  let groupByAll = inherited.groupByAll;
  if (spec.groupBy.length > 0) {
    groupBy = spec.groupBy;
    groupByAll = false;
  } else if (spec.groupByAll) {
    groupByAll = true;
  }
  const matchers: Matcher[] = [];
  for (const [name, value] of spec.match ?? []) {
    const m = newMatcher(name, '=', value);
    if (m.ok) matchers.push(m.value);
  }
  for (const [name, pattern] of spec.matchRe ?? []) {
    const m = newMatcher(name, '=~', `^(?:${pattern})$`);
    if (m.ok) matchers.push(m.value);
  }
  matchers.push(...(spec.matchers ?? []));
  const sorted = sortMatchers(matchers);
  const ownKey = formatMatchers(sorted);
  const route: Route = {
    receiver: spec.receiver !== '' ? spec.receiver : inherited.receiver,
    groupBy,
    groupByAll,
    matchers: sorted,
    continue: spec.continue,
    groupWaitMs: spec.groupWaitMs ?? inherited.groupWaitMs,
    groupIntervalMs: spec.groupIntervalMs ?? inherited.groupIntervalMs,
    repeatIntervalMs: spec.repeatIntervalMs ?? inherited.repeatIntervalMs,
    muteTimeIntervals: spec.muteTimeIntervals ?? [],
    activeTimeIntervals: spec.activeTimeIntervals ?? [],
    routes: [],
    key: parent === undefined ? ownKey : `${parent.key}/${ownKey}`,
    labels: Object.freeze({ ...inherited.labels, ...Object.fromEntries(spec.labels ?? []) }),
  };
  route.routes = spec.routes.map((child) => buildRoute(child, route));
  return route;
}

/** The route as Alertmanager 0.25 prints it (`labels`, newer, left out). */
export function routeOut(r: RouteSpec): YamlOut {
  const entries: Array<[string, YamlOut]> = [];
  if (r.receiver !== '') entries.push(['receiver', str(r.receiver)]);
  if (r.groupByStr !== undefined && r.groupByStr.length > 0) entries.push(['group_by', seq(r.groupByStr.map(str))]);
  if (r.match !== undefined && r.match.length > 0) entries.push(['match', sortedMap(r.match.map(([k, v]) => [k, str(v)]))]);
  if (r.matchRe !== undefined && r.matchRe.length > 0) entries.push(['match_re', sortedMap(r.matchRe.map(([k, v]) => [k, str(v)]))]);
  if (r.matchers !== undefined && r.matchers.length > 0) entries.push(['matchers', seq(r.matchers.map((m) => str(formatMatcher(m))))]);
  if (r.muteTimeIntervals !== undefined && r.muteTimeIntervals.length > 0) entries.push(['mute_time_intervals', seq(r.muteTimeIntervals.map(str))]);
  if (r.activeTimeIntervals !== undefined && r.activeTimeIntervals.length > 0) entries.push(['active_time_intervals', seq(r.activeTimeIntervals.map(str))]);
  entries.push(['continue', lit(r.continue)]);
  if (r.routes.length > 0) entries.push(['routes', seq(r.routes.map(routeOut))]);
  if (r.groupWaitMs !== undefined) entries.push(['group_wait', str(formatDuration(r.groupWaitMs))]);
  if (r.groupIntervalMs !== undefined) entries.push(['group_interval', str(formatDuration(r.groupIntervalMs))]);
  if (r.repeatIntervalMs !== undefined) entries.push(['repeat_interval', str(formatDuration(r.repeatIntervalMs))]);
  return map(entries);
}
