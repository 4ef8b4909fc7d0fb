import type { AlertmanagerConfig, InhibitRule } from './config/model.js';
import { newMatcher } from './matchers/index.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';
import { isResolved, silenceState, type Alert, type Silence } from './model.js';

/**
 * Inhibition as Alertmanager's inhibitor decides it, evaluated at query time: a target alert is
 * inhibited by an unresolved source alert of the same rule whose `equal` labels agree (a label
 * missing on both counts as equal), except that an alert matching both sides is never inhibited
 * by another that also does. The first rule that inhibits wins; one source is reported.
 */
export class Inhibitor {
  /** Per rule: sources by their `equal` label values. */
  private readonly sources: Array<Map<string, Alert[]>>;

  constructor(
    private readonly rules: readonly InhibitRule[],
    alerts: Iterable<Alert>,
    now: number,
  ) {
    this.sources = rules.map(() => new Map());
    for (const alert of alerts) {
      if (isResolved(alert, now)) continue;
      rules.forEach((rule, i) => {
        if (!matchesAll(rule.sourceMatchers, alert.labels)) return;
        const key = equalKey(rule, alert.labels);
        const bucket = (this.sources[i] as Map<string, Alert[]>).get(key);
        if (bucket === undefined) (this.sources[i] as Map<string, Alert[]>).set(key, [alert]);
        else bucket.push(alert);
      });
    }
  }

  /** The fingerprint of the alert inhibiting `labels`, if any. */
  inhibitedBy(labels: LabelSet): string | undefined {
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i] as InhibitRule;
      if (!matchesAll(rule.targetMatchers, labels)) continue;
      const candidates = (this.sources[i] as Map<string, Alert[]>).get(equalKey(rule, labels));
      if (candidates === undefined) continue;
      const selfProtected = matchesAll(rule.sourceMatchers, labels);
      let chosen: Alert | undefined;
      for (const source of candidates) {
        if (selfProtected && matchesAll(rule.targetMatchers, source.labels)) continue;
        if (chosen === undefined || source.endsAt > chosen.endsAt) chosen = source;
      }
      if (chosen !== undefined) return chosen.fingerprint;
    }
    return undefined;
  }
}

function matchesAll(matchers: readonly Matcher[], labels: LabelSet): boolean {
  for (const matcher of matchers) if (!matcher.matches(labels)) return false;
  return true;
}

function equalKey(rule: InhibitRule, labels: LabelSet): string {
  return JSON.stringify(rule.equal.map((name) => labels[name] ?? ''));
}

/**
 * Which active silences match an alert. Silences are indexed by one of their equality matchers
 * (name and value), so an alert is checked only against silences that could match it, plus
 * those with no equality matcher at all: 10,000 alerts against 1,000 silences stays cheap.
 */
export class Silencer {
  private readonly byLabel = new Map<string, Map<string, Array<{ id: string; matchers: Matcher[] }>>>();
  private readonly unindexed: Array<{ id: string; matchers: Matcher[] }> = [];

  constructor(silences: Iterable<Silence>, now: number) {
    for (const silence of silences) {
      if (silenceState(silence, now) !== 'active') continue;
      const matchers: Matcher[] = [];
      for (const m of silence.matchers) {
        const built = newMatcher(m.name, m.type, m.value);
        if (built.ok) matchers.push(built.value);
      }
      if (matchers.length !== silence.matchers.length) continue;
      const entry = { id: silence.id, matchers };
      // An equality matcher on a non-empty value can only match alerts carrying that label value.
      const anchor = matchers.find((m) => m.type === '=' && m.value !== '');
      if (anchor === undefined) {
        this.unindexed.push(entry);
        continue;
      }
      let values = this.byLabel.get(anchor.name);
      if (values === undefined) this.byLabel.set(anchor.name, (values = new Map()));
      const list = values.get(anchor.value);
      if (list === undefined) values.set(anchor.value, [entry]);
      else list.push(entry);
    }
  }

  /** Ids of the active silences muting `labels`, sorted. */
  silencedBy(labels: LabelSet): string[] {
    const ids: string[] = [];
    for (const name in labels) {
      const list = this.byLabel.get(name)?.get(labels[name] as string);
      if (list !== undefined) for (const entry of list) if (matchesAll(entry.matchers, labels)) ids.push(entry.id);
    }
    for (const entry of this.unindexed) if (matchesAll(entry.matchers, labels)) ids.push(entry.id);
    return ids.sort();
  }
}

/** Names of the time intervals muting `route` at `at` (mutedBy), as the notification pipeline sets them. */
export function mutedBy(config: AlertmanagerConfig, route: { muteTimeIntervals: readonly string[]; activeTimeIntervals: readonly string[] }, at: Date): string[] {
  const muted = route.muteTimeIntervals.filter((name) => config.timeIntervals.get(name)?.contains(at) === true);
  if (route.activeTimeIntervals.length > 0 && !route.activeTimeIntervals.some((name) => config.timeIntervals.get(name)?.contains(at) === true)) {
    muted.push(...route.activeTimeIntervals);
  }
  return muted;
}
