import { AlertStore } from './alert-store.js';
import type { AlertmanagerConfig, Route } from './config/model.js';
import { compareCodePoints, fingerprint, sortedLabelNames } from './fingerprint.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';
import { Inhibitor, mutedBy, Silencer } from './muting.js';
import { isResolved, silenceState, type Alert, type Silence, type SilenceState } from './model.js';
import { groupLabels, matchRoutes } from './routing.js';
import { SilenceStore, type SilenceChange, type SilenceLimits, type SilenceRequest } from './silence-store.js';
import type { AlertStateStore, StateChange } from './state/alert-state-store.js';

/** An alert as POST /alerts delivers it, times parsed (ZERO_TIME when not set). */
export interface IncomingAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: number;
  endsAt: number;
  generatorURL: string;
}

/** The filters of GET /alerts and /alerts/groups, parsed. */
export interface AlertQuery {
  active: boolean;
  silenced: boolean;
  inhibited: boolean;
  /** groups only */
  muted: boolean;
  filter: readonly Matcher[];
  /** Anchored receiver regex, or undefined. */
  receiver: ((name: string) => boolean) | undefined;
}

export interface AlertStatus {
  inhibitedBy: string[];
  mutedBy: string[];
  silencedBy: string[];
  state: 'active' | 'suppressed' | 'unprocessed';
}

/** What GET /alerts and /alerts/groups report per alert. */
export interface AlertView {
  alert: Alert;
  receivers: string[];
  status: AlertStatus;
}

export interface GroupView {
  labels: Record<string, string>;
  receiver: string;
  routeLabels: LabelSet;
  alerts: AlertView[];
}

export interface AlertsServiceOptions {
  config: AlertmanagerConfig;
  store: AlertStateStore;
  silenceLimits: SilenceLimits;
  /** How long an expired silence is kept (--data.retention). */
  retentionMs: number;
}

/** No lone surrogates: JSON's `\ud800` escapes can make strings Go would call invalid UTF-8. */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Alertmanager's validation of an alert (types.Alert.Validate), with its messages. */
function validationError(alert: Alert): string | undefined {
  if (!Number.isFinite(alert.startsAt)) return 'start time missing';
  if (Number.isFinite(alert.endsAt) && alert.endsAt < alert.startsAt) return 'start time must be before end time';
  const names = Object.keys(alert.labels);
  if (names.length === 0) return 'at least one label pair required';
  // Since 0.27 (UTF-8 names) a name is any non-empty valid UTF-8 string; so is a value.
  for (const [name, value] of Object.entries(alert.labels)) {
    if (name === '' || !wellFormed(name)) return `invalid label set: invalid name ${JSON.stringify(name)}`;
    if (!wellFormed(value)) return `invalid label set: invalid value ${JSON.stringify(value)}`;
  }
  for (const [name, value] of Object.entries(alert.annotations)) {
    if (name === '' || !wellFormed(name)) return `invalid annotations: invalid name ${JSON.stringify(name)}`;
    if (!wellFormed(value)) return `invalid annotations: invalid value ${JSON.stringify(value)}`;
  }
  return undefined;
}

/**
 * The alert management API's state and rules, whichever transport asks: alerts (merged, resolved,
 * collected), silences, and the status of each alert computed at query time from the current
 * configuration, silences and inhibition rules. Every change is written to the durable store
 * before it is acknowledged.
 */
export class AlertsService {
  private config: AlertmanagerConfig;
  private readonly alerts = new AlertStore();
  private readonly silences: SilenceStore;
  private readonly store: AlertStateStore;
  private readonly retentionMs: number;

  private constructor(options: AlertsServiceOptions) {
    this.config = options.config;
    this.store = options.store;
    this.silences = new SilenceStore(options.silenceLimits);
    this.retentionMs = options.retentionMs;
  }

  /** Opens the service on what the durable store holds. */
  static async open(options: AlertsServiceOptions): Promise<AlertsService> {
    const service = new AlertsService(options);
    const saved = await options.store.load();
    for (const alert of saved.alerts) service.alerts.restore(alert);
    for (const silence of saved.silences) service.silences.restore(silence);
    await service.compactIfDue();
    return service;
  }

  get configuration(): AlertmanagerConfig {
    return this.config;
  }

  /** Puts a newly loaded configuration into service; alerts and silences stay. */
  reconfigure(config: AlertmanagerConfig): void {
    this.config = config;
  }

  /**
   * POST /alerts: defaults from resolve_timeout, empty-valued labels dropped, every valid alert
   * stored (merged) and written durably; the errors of the others returned, in order.
   */
  async postAlerts(incoming: readonly IncomingAlert[], now: number): Promise<string[]> {
    const errors: string[] = [];
    const stored: Alert[] = [];
    for (const posted of incoming) {
      const labels = withoutEmptyValues(posted.labels);
      let { startsAt, endsAt } = posted;
      let timeout = false;
      if (!Number.isFinite(startsAt)) startsAt = Number.isFinite(endsAt) ? endsAt : now;
      if (!Number.isFinite(endsAt)) {
        endsAt = now + this.config.global.resolveTimeoutMs;
        timeout = true;
      }
      const alert: Alert = { fingerprint: fingerprint(labels), labels, annotations: posted.annotations, startsAt, endsAt, updatedAt: now, generatorURL: posted.generatorURL, timeout };
      const problem = validationError(alert);
      if (problem !== undefined) {
        errors.push(problem);
        continue;
      }
      stored.push(this.alerts.put(alert, now));
    }
    if (stored.length > 0) await this.persist({ alerts: stored });
    return errors;
  }

  /** GET /alerts: unresolved alerts passing the query, sorted by fingerprint. */
  listAlerts(query: AlertQuery, now: number): AlertView[] {
    const context = this.queryContext(now);
    const views: AlertView[] = [];
    for (const alert of this.alerts.values()) {
      if (isResolved(alert, now)) continue;
      const receivers = matchRoutes(this.config.route, alert.labels).map((route) => route.receiver);
      if (query.receiver !== undefined && !receivers.some(query.receiver)) continue;
      if (!query.filter.every((m) => m.matches(alert.labels))) continue;
      const status = context.status(alert.labels);
      if (!passes(query, status)) continue;
      views.push({ alert, receivers, status });
    }
    return views.sort((a, b) => (a.alert.fingerprint < b.alert.fingerprint ? -1 : a.alert.fingerprint > b.alert.fingerprint ? 1 : 0));
  }

  /** GET /alerts/groups: one group per route node and group labels, sorted as Alertmanager does. */
  listGroups(query: AlertQuery, now: number): GroupView[] {
    const context = this.queryContext(now);
    const at = new Date(now);
    const groups = new Map<string, { route: Route; labels: Record<string, string>; alerts: Alert[] }>();
    for (const alert of this.alerts.values()) {
      if (isResolved(alert, now)) continue;
      for (const route of matchRoutes(this.config.route, alert.labels)) {
        const labels = groupLabels(route, alert.labels);
        const key = `${route.key}:${fingerprint(labels)}`;
        const group = groups.get(key);
        if (group === undefined) groups.set(key, { route, labels, alerts: [alert] });
        else group.alerts.push(alert);
      }
    }
    const result: GroupView[] = [];
    const receiversOf = new Map<string, Set<string>>();
    for (const group of groups.values()) {
      if (query.receiver !== undefined && !query.receiver(group.route.receiver)) continue;
      const muted = mutedBy(this.config, group.route, at);
      if (!query.muted && muted.length > 0) continue;
      const alerts: AlertView[] = [];
      for (const alert of group.alerts) {
        if (!query.filter.every((m) => m.matches(alert.labels))) continue;
        const base = context.status(alert.labels);
        const status: AlertStatus = { ...base, mutedBy: muted, state: muted.length > 0 ? 'suppressed' : base.state };
        if (!passes(query, base)) continue;
        alerts.push({ alert, receivers: [], status });
        let names = receiversOf.get(alert.fingerprint);
        if (names === undefined) receiversOf.set(alert.fingerprint, (names = new Set()));
        names.add(group.route.receiver);
      }
      if (alerts.length === 0) continue;
      result.push({ labels: group.labels, receiver: group.route.receiver, routeLabels: group.route.labels, alerts: alerts.sort(compareInGroup) });
    }
    for (const group of result) {
      for (const view of group.alerts) view.receivers = [...(receiversOf.get(view.alert.fingerprint) ?? [])].sort(compareCodePoints);
    }
    return result.sort((a, b) => compareLabelSets(a.labels, b.labels) || compareCodePoints(a.receiver, b.receiver));
  }

  /** GET /silences: stored silences, by state and filter (exact matcher equality), in Alertmanager's order. */
  listSilences(filter: readonly Matcher[], states: ReadonlySet<SilenceState>, now: number): Silence[] {
    const chosen: Silence[] = [];
    for (const silence of this.silences.values()) {
      if (!states.has(silenceState(silence, now))) continue;
      const passes = filter.every((f) => silence.matchers.some((m) => m.name === f.name && m.type === f.type && m.value === f.value));
      if (passes) chosen.push(silence);
    }
    return chosen.sort((a, b) => compareSilences(a, b, now));
  }

  getSilence(id: string): Silence | undefined {
    return this.silences.get(id);
  }

  /** POST /silences once validated: create or update, then written durably. */
  async setSilence(request: SilenceRequest, now: number): Promise<SilenceChange> {
    const change = this.silences.set(request, now);
    if (change.ok) await this.persist({ silences: change.expired === undefined ? [change.silence] : [change.expired, change.silence] });
    return change;
  }

  /** DELETE /silence/{id}: 'missing' when there is no such silence. */
  async expireSilence(id: string, now: number): Promise<'expired' | 'missing'> {
    const result = this.silences.expire(id, now);
    if (result === undefined) return 'missing';
    if (result !== 'unchanged') await this.persist({ silences: [result] });
    return 'expired';
  }

  /** Drops resolved alerts and silences past retention, in memory and durably (Alertmanager's GC). */
  async collectGarbage(now: number): Promise<void> {
    const removedAlerts = this.alerts.collect(now);
    const removedSilences = this.silences.collect(now, this.retentionMs);
    if (removedAlerts.length > 0 || removedSilences.length > 0) await this.persist({ removedAlerts, removedSilences });
  }

  /** Writes a change durably; the store's history is replaced by the whole state when it asks. */
  private async persist(change: StateChange): Promise<void> {
    await this.store.write(change);
    await this.compactIfDue();
  }

  private async compactIfDue(): Promise<void> {
    if (this.store.wantsCompaction(this.alerts.size + this.silences.size)) await this.store.compact({ alerts: [...this.alerts.values()], silences: [...this.silences.values()] });
  }

  private queryContext(now: number): { status(labels: LabelSet): AlertStatus } {
    const inhibitor = new Inhibitor(this.config.inhibitRules, this.alerts.values(), now);
    const silencer = new Silencer(this.silences.values(), now);
    return {
      status(labels) {
        const inhibiting = inhibitor.inhibitedBy(labels);
        const silencedBy = silencer.silencedBy(labels);
        const inhibitedBy = inhibiting === undefined ? [] : [inhibiting];
        return { inhibitedBy, mutedBy: [], silencedBy, state: inhibitedBy.length > 0 || silencedBy.length > 0 ? 'suppressed' : 'active' };
      },
    };
  }
}

function passes(query: AlertQuery, status: AlertStatus): boolean {
  if (!query.active && status.state === 'active') return false;
  if (!query.silenced && status.silencedBy.length > 0) return false;
  if (!query.inhibited && status.inhibitedBy.length > 0) return false;
  return true;
}

/** Alertmanager drops labels with an empty value; copied only when there is one. */
function withoutEmptyValues(labels: LabelSet): LabelSet {
  let empty = false;
  for (const name in labels) if (labels[name] === '') empty = true;
  if (!empty) return labels;
  const kept: Record<string, string> = {};
  for (const name in labels) if (labels[name] !== '') kept[name] = labels[name] as string;
  return kept;
}

/** Prometheus's LabelSet.Before: fewer labels first, then the first differing name or value. */
export function compareLabelSets(a: LabelSet, b: LabelSet): number {
  const an = sortedLabelNames(a);
  const bn = sortedLabelNames(b);
  if (an.length !== bn.length) return an.length - bn.length;
  for (let i = 0; i < an.length; i++) {
    const byName = compareCodePoints(an[i] as string, bn[i] as string);
    if (byName !== 0) return byName;
    const byValue = compareCodePoints(a[an[i] as string] as string, b[bn[i] as string] as string);
    if (byValue !== 0) return byValue;
  }
  return 0;
}

/** Alerts in a group: by `job`, then `instance` (having the label first), then by labels. */
function compareInGroup(x: AlertView, y: AlertView): number {
  for (const name of ['job', 'instance']) {
    const a = x.alert.labels[name];
    const b = y.alert.labels[name];
    if (a !== b) {
      if (a === undefined) return 1;
      if (b === undefined) return -1;
      return compareCodePoints(a, b);
    }
  }
  return compareLabelSets(x.alert.labels, y.alert.labels);
}

const STATE_ORDER: Readonly<Record<SilenceState, number>> = { active: 0, pending: 1, expired: 2 };

/** Alertmanager's SortSilences: active by end, pending by start, expired by end, latest first. */
function compareSilences(a: Silence, b: Silence, now: number): number {
  const sa = silenceState(a, now);
  const sb = silenceState(b, now);
  if (sa !== sb) return STATE_ORDER[sa] - STATE_ORDER[sb];
  if (sa === 'active') return a.endsAt - b.endsAt;
  if (sa === 'pending') return a.startsAt - b.startsAt;
  return b.endsAt - a.endsAt;
}
