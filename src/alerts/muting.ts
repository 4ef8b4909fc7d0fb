import type { AlertmanagerConfig, InhibitRule } from './config/model.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';
import { isResolved, type Alert } from './model.js';

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

/** Names of the time intervals muting `route` at `at` (mutedBy), as the notification pipeline sets them. */
export function mutedBy(config: AlertmanagerConfig, route: { muteTimeIntervals: readonly string[]; activeTimeIntervals: readonly string[] }, at: Date): string[] {
  const muted = route.muteTimeIntervals.filter((name) => config.timeIntervals.get(name)?.contains(at) === true);
  if (route.activeTimeIntervals.length > 0 && !route.activeTimeIntervals.some((name) => config.timeIntervals.get(name)?.contains(at) === true)) {
    muted.push(...route.activeTimeIntervals);
  }
  return muted;
}
