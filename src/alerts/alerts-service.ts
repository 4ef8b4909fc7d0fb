import { AlertStore } from './alert-store.js';
import type { AlertmanagerConfig, Route } from './config/model.js';
import { compareAlertsInGroup, compareCodePoints, compareLabelSets, fingerprint } from './fingerprint.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';
import { Inhibitor, mutedBy } from './muting.js';
import { isResolved, silenceState, type Alert, type Silence, type SilenceState } from './model.js';
import { RouteCache } from './routing.js';
import { SilenceMarker } from './silence-marker.js';
import { SilenceStore, type SilenceChange, type SilenceLimits, type SilenceRequest } from './silence-store.js';
import { DEFAULT_SLICE_MS, Slicer } from './slicer.js';
import { isWholeAlert, type AlertRenewal, type AlertStateStore, type StateChange } from './state/alert-state-store.js';

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
  receivers: readonly string[];
  status: AlertStatus;
}

export interface GroupView {
  labels: Record<string, string>;
  receiver: string;
  routeLabels: LabelSet;
  alerts: AlertView[];
}

/**
 * What the notifier is told of the alert state (the notify module's Notifier): alerts stored,
 * a new configuration, and whether a resolved alert must stay until its notification went out.
 */
export interface NotificationHooks {
  alertsStored(alerts: Iterable<Alert>): void;
  reconfigure(config: AlertmanagerConfig, alerts: Iterable<Alert>): unknown;
  holds(fingerprint: string): boolean;
}

/** Whether an alert is held back at send time: inhibited by another alert, or silenced. */
export interface SendSuppression {
  inhibited(alert: Alert): boolean;
  silenced(alert: Alert): boolean;
}

export interface AlertsServiceOptions {
  config: AlertmanagerConfig;
  store: AlertStateStore;
  silenceLimits: SilenceLimits;
  /** How long an expired silence is kept (--data.retention). */
  retentionMs: number;
  /** How long a resolved alert is kept after its end (ALERTMANAGER_RESOLVED_RETENTION). */
  resolvedRetentionMs: number;
  /** Most alerts held, resolved ones not yet dropped included (ALERTMANAGER_MAX_ALERTS). */
  maxAlerts: number;
}

/** What POST /alerts did: the errors of the invalid alerts, in order, and how many valid new ones did not fit. */
export interface PostOutcome {
  errors: string[];
  refused: number;
}

/** No lone surrogates: JSON's `\ud800` escapes can make strings Go would call invalid UTF-8. */
function wellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function sameStrings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** The alert as stored again differs from the one held in its times alone: a renewal is all the log needs. */
function onlyTimesDiffer(held: Alert, stored: Alert): boolean {
  return held.startsAt === stored.startsAt && held.generatorURL === stored.generatorURL && sameStrings(held.labels, stored.labels) && sameStrings(held.annotations, stored.annotations);
}

function hasAny(map: Readonly<Record<string, string>>): boolean {
  for (const _ in map) return true;
  return false;
}

/** Alertmanager's validation of an alert (types.Alert.Validate), with its messages. */
function validationError(alert: Alert): string | undefined {
  if (!Number.isFinite(alert.startsAt)) return 'start time missing';
  if (Number.isFinite(alert.endsAt) && alert.endsAt < alert.startsAt) return 'start time must be before end time';
  if (!hasAny(alert.labels)) return 'at least one label pair required';
  // Since 0.27 (UTF-8 names) a name is any non-empty valid UTF-8 string; so is a value.
  // for-in, not Object.entries: no pair arrays per alert on the ingest path.
  for (const name in alert.labels) {
    if (name === '' || !wellFormed(name)) return `invalid label set: invalid name ${JSON.stringify(name)}`;
    if (!wellFormed(alert.labels[name] as string)) return `invalid label set: invalid value ${JSON.stringify(alert.labels[name])}`;
  }
  for (const name in alert.annotations) {
    if (name === '' || !wellFormed(name)) return `invalid annotations: invalid name ${JSON.stringify(name)}`;
    if (!wellFormed(alert.annotations[name] as string)) return `invalid annotations: invalid value ${JSON.stringify(alert.annotations[name])}`;
  }
  return undefined;
}

/**
 * The alert management API's state and rules, whichever transport asks: alerts (merged, resolved,
 * dropped), silences, and the status of each alert: silences from each alert's mark (computed
 * once per alert, brought up to date when silences are added), inhibition and routes from the
 * current configuration at query time. Every change is written to the durable store before it
 * is acknowledged. Long loops run in slices (`Slicer`), so no request holds the thread for long.
 */
export class AlertsService {
  private config: AlertmanagerConfig;
  private readonly alerts: AlertStore;
  private readonly silences: SilenceStore;
  private readonly marker: SilenceMarker;
  private readonly routes = new RouteCache((route, labels) => `${route.key}:${fingerprint(labels)}`);
  private readonly store: AlertStateStore;
  private readonly retentionMs: number;
  private readonly maxAlerts: number;
  private readonly background = new AbortController();
  private marking: Promise<void> | undefined;
  /** Alerts whose silences were never tried (see markInBackground). */
  private readonly unmarked = new Set<string>();
  /** Silences were added since the background marking last went over every alert. */
  private silencesAdded = false;
  private notifications: NotificationHooks | undefined;
  /** Counts changes to the alerts, so the suppression of one moment serves every flush until the next change. */
  private alertsVersion = 0;
  private suppressionCache: { version: number; second: number; value: SendSuppression } | undefined;

  /** An empty service; `load` fills it from the durable store. */
  constructor(options: AlertsServiceOptions) {
    this.config = options.config;
    this.store = options.store;
    this.alerts = new AlertStore(options.resolvedRetentionMs);
    this.silences = new SilenceStore(options.silenceLimits);
    this.marker = new SilenceMarker(this.silences.index);
    this.retentionMs = options.retentionMs;
    this.maxAlerts = options.maxAlerts;
  }

  /**
   * Replays what the durable store holds, a slice at a time; then compiles the silences that can
   * still be active, schedules the drops of resolved alerts, and compacts the log if it has
   * outgrown the state. Nothing else may use the service before this resolves.
   */
  async load(now: number, slicer: Slicer): Promise<void> {
    for await (const change of this.store.read()) {
      for (const alert of change.alerts ?? []) {
        if (isWholeAlert(alert)) this.alerts.restore(alert);
        else this.alerts.restoreRenewal(alert);
      }
      for (const silence of change.silences ?? []) this.silences.restore(silence);
      for (const fingerprint of change.removedAlerts ?? []) this.alerts.forget(fingerprint);
      for (const id of change.removedSilences ?? []) this.silences.forget(id);
      if (slicer.due()) await slicer.pause();
    }
    this.alerts.scheduleAll();
    await this.silences.indexAll(now, slicer);
    await this.compactIfDue();
    for (const alert of this.alerts.values()) this.unmarked.add(alert.fingerprint);
    this.markInBackground();
    this.notifications?.alertsStored(this.alerts.values());
  }

  /** Where alert changes are reported for notifications; set before `load`. */
  notifyWith(hooks: NotificationHooks): void {
    this.notifications = hooks;
  }

  /** Alerts held, resolved ones not yet dropped included. */
  get alertCount(): number {
    return this.alerts.size;
  }

  get configuration(): AlertmanagerConfig {
    return this.config;
  }

  /** Puts a newly loaded configuration into service; alerts and silences stay. */
  reconfigure(config: AlertmanagerConfig): void {
    this.config = config;
    this.suppressionCache = undefined;
    this.notifications?.reconfigure(config, this.alerts.values());
  }

  /**
   * POST /alerts: defaults from resolve_timeout, empty-valued labels dropped, every valid alert
   * stored (merged) and written durably; the errors of the others returned, in order. An alert
   * of a new label set is refused while `maxAlerts` are held; one already held is always taken,
   * so resolving goes on when the store is full.
   */
  async postAlerts(incoming: readonly IncomingAlert[], now: number): Promise<PostOutcome> {
    const errors: string[] = [];
    const stored: Alert[] = [];
    const writes: Array<Alert | AlertRenewal> = [];
    let refused = 0;
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
      const held = this.alerts.get(alert.fingerprint);
      // Taken but not kept: it would be dropped at once (Prometheus re-sends resolved alerts for 15 minutes).
      if (held === undefined && this.alerts.isPastRetention(alert, now)) continue;
      if (held === undefined && this.maxAlerts > 0 && this.alerts.size >= this.maxAlerts) {
        refused++;
        continue;
      }
      // With no silence to try there is nothing to mark ahead of queries; silences added later mark it then.
      if (held === undefined && !this.marker.nothingToMark) this.unmarked.add(alert.fingerprint);
      const put = this.alerts.putOver(alert, held, now);
      stored.push(put);
      writes.push(held !== undefined && onlyTimesDiffer(held, put) ? { fingerprint: put.fingerprint, endsAt: put.endsAt, updatedAt: put.updatedAt, timeout: put.timeout } : put);
    }
    if (stored.length > 0) {
      await this.persist({ alerts: writes });
      this.alertsVersion++;
      this.markInBackground();
      this.notifications?.alertsStored(stored);
    }
    return { errors, refused };
  }

  /**
   * Brings alerts' marks up to date in the background, a slice at a time, so that the next
   * query finds them ready: first the alerts never marked (new ones, or all after loading),
   * then, once silences were added, every alert (each tries only the new silences). Work asked
   * for while a run goes on is done in the same run. Stops when `stop` is called.
   */
  private markInBackground(): void {
    if (this.marking !== undefined || (this.unmarked.size === 0 && !this.silencesAdded)) return;
    const run = async () => {
      const slicer = new Slicer(DEFAULT_SLICE_MS, this.background.signal);
      while (this.unmarked.size > 0 || this.silencesAdded) {
        for (const fingerprint of this.unmarked) {
          this.unmarked.delete(fingerprint);
          const alert = this.alerts.get(fingerprint);
          if (alert !== undefined) this.marker.matching(alert);
          if (slicer.due()) await slicer.pause();
        }
        if (!this.silencesAdded) continue;
        this.silencesAdded = false;
        for (const alert of [...this.alerts.values()]) {
          if (this.marker.isStale(alert.fingerprint) && this.alerts.get(alert.fingerprint) === alert) this.marker.matching(alert);
          if (slicer.due()) await slicer.pause();
        }
      }
    };
    this.marking = run()
      .catch(() => undefined)
      .finally(() => (this.marking = undefined));
  }

  /** Ends the work done in the background (marking), before the store closes. */
  async stop(): Promise<void> {
    this.background.abort();
    await this.marking;
  }

  /** GET /alerts: unresolved alerts passing the query, sorted by fingerprint. */
  async listAlerts(query: AlertQuery, now: number, slicer: Slicer): Promise<AlertView[]> {
    const context = this.queryContext(now);
    const views: AlertView[] = [];
    for (const alert of [...this.alerts.values()]) {
      if (slicer.due()) await slicer.pause();
      if (isResolved(alert, now)) continue;
      const { receivers } = this.routes.of(this.config.route, alert.fingerprint, alert.labels);
      if (query.receiver !== undefined && !receivers.some(query.receiver)) continue;
      if (!query.filter.every((m) => m.matches(alert.labels))) continue;
      const status = context.status(alert);
      if (!passes(query, status)) continue;
      views.push({ alert, receivers, status });
    }
    return byFingerprint(views);
  }

  /** GET /alerts/groups: one group per route node and group labels, sorted as Alertmanager does. */
  async listGroups(query: AlertQuery, now: number, slicer: Slicer): Promise<GroupView[]> {
    const context = this.queryContext(now);
    const at = new Date(now);
    const groups = new Map<string, { route: Route; labels: Record<string, string>; alerts: Alert[] }>();
    for (const alert of [...this.alerts.values()]) {
      if (slicer.due()) await slicer.pause();
      if (isResolved(alert, now)) continue;
      const where = this.routes.of(this.config.route, alert.fingerprint, alert.labels);
      where.routes.forEach((route, i) => {
        const { labels, key } = where.groups[i] as { labels: Record<string, string>; key: string };
        const group = groups.get(key);
        if (group === undefined) groups.set(key, { route, labels, alerts: [alert] });
        else group.alerts.push(alert);
      });
    }
    const result: GroupView[] = [];
    const receiversOf = new Map<string, Set<string>>();
    for (const group of groups.values()) {
      if (query.receiver !== undefined && !query.receiver(group.route.receiver)) continue;
      const muted = mutedBy(this.config, group.route, at);
      if (!query.muted && muted.length > 0) continue;
      const alerts: AlertView[] = [];
      for (const alert of group.alerts) {
        if (slicer.due()) await slicer.pause();
        if (!query.filter.every((m) => m.matches(alert.labels))) continue;
        const base = context.status(alert);
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
    if (!change.ok) return change;
    await this.persist({ silences: change.expired === undefined ? [change.silence] : [change.expired, change.silence] });
    // A new silence (not one updated in place, whose matchers stay): every alert has it to try.
    if (change.silence.id !== request.id) {
      this.silencesAdded = true;
      this.markInBackground();
    }
    return change;
  }

  /** DELETE /silence/{id}: 'missing' when there is no such silence. */
  async expireSilence(id: string, now: number): Promise<'expired' | 'missing'> {
    const result = this.silences.expire(id, now);
    if (result === undefined) return 'missing';
    if (result !== 'unchanged') await this.persist({ silences: [result] });
    return 'expired';
  }

  /** Drops the alerts resolved at least the resolved retention ago, in memory and durably; returns how many. */
  async dropResolved(now: number): Promise<number> {
    const hooks = this.notifications;
    const removedAlerts = this.alerts.dropResolved(now, hooks === undefined ? undefined : (fingerprint) => hooks.holds(fingerprint));
    if (removedAlerts.length > 0) this.alertsVersion++;
    for (const fingerprint of removedAlerts) {
      this.marker.forget(fingerprint);
      this.routes.forget(fingerprint);
      this.unmarked.delete(fingerprint);
    }
    if (removedAlerts.length > 0) await this.persist({ removedAlerts });
    return removedAlerts.length;
  }

  /** Drops resolved alerts and the silences past retention, in memory and durably (Alertmanager's GC). */
  async collectGarbage(now: number): Promise<void> {
    await this.dropResolved(now);
    const removedSilences = this.silences.collect(now, this.retentionMs);
    if (removedSilences.length > 0) await this.persist({ removedSilences });
  }

  /** Writes a change durably; the store's history is replaced by the whole state when it asks. */
  private async persist(change: StateChange): Promise<void> {
    await this.store.write(change);
    await this.compactIfDue();
  }

  private async compactIfDue(): Promise<void> {
    if (this.store.wantsCompaction(this.alerts.size + this.silences.size)) await this.store.compact({ alerts: [...this.alerts.values()], silences: [...this.silences.values()] });
  }

  /**
   * Inhibition and silences as the notification pipeline applies them at a flush. Worked out
   * once per second while the alerts do not change: a thousand groups flushing together share it.
   */
  suppression(now: number): SendSuppression {
    const second = Math.floor(now / 1000);
    const cached = this.suppressionCache;
    if (cached !== undefined && cached.version === this.alertsVersion && cached.second === second) return cached.value;
    const inhibitor = this.config.inhibitRules.length === 0 ? undefined : new Inhibitor(this.config.inhibitRules, this.alerts.values(), now);
    const value: SendSuppression = {
      inhibited: (alert) => inhibitor?.inhibitedBy(alert.labels) !== undefined,
      silenced: (alert) => this.marker.matching(alert).some((id) => this.silenceIsActive(id, now)),
    };
    this.suppressionCache = { version: this.alertsVersion, second, value };
    return value;
  }

  private queryContext(now: number): { status(alert: Alert): AlertStatus } {
    const inhibitor = new Inhibitor(this.config.inhibitRules, this.alerts.values(), now);
    const silencedBy = (alert: Alert) => this.marker.matching(alert).filter((id) => this.silenceIsActive(id, now));
    return {
      status(alert) {
        const inhibiting = inhibitor.inhibitedBy(alert.labels);
        const silenced = silencedBy(alert);
        const inhibitedBy = inhibiting === undefined ? [] : [inhibiting];
        return { inhibitedBy, mutedBy: [], silencedBy: silenced, state: inhibitedBy.length > 0 || silenced.length > 0 ? 'suppressed' : 'active' };
      },
    };
  }

  private silenceIsActive(id: string, now: number): boolean {
    const silence = this.silences.get(id);
    return silence !== undefined && silenceState(silence, now) === 'active';
  }
}

/** Views sorted by fingerprint (fixed-width hex): the engine's own string sort, not a comparator per pair. */
function byFingerprint(views: AlertView[]): AlertView[] {
  const byKey = new Map(views.map((view) => [view.alert.fingerprint, view]));
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as AlertView);
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

/** Alerts in a group: by `job`, then `instance`, then by labels. */
function compareInGroup(x: AlertView, y: AlertView): number {
  return compareAlertsInGroup(x.alert, y.alert);
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
