import type { AlertView, GroupView } from '../alerts-service.js';
import type { Alert, Silence } from '../model.js';
import { silenceState } from '../model.js';
import { formatTime } from '../time.js';

/**
 * The JSON shapes of Alertmanager API v2 (v0.34), with Go's field order (go-swagger writes
 * fields alphabetically within each struct, an embedded struct's fields after its own).
 */

const text = JSON.stringify;

/** The status most alerts have, written once. */
const ACTIVE_STATUS = text({ inhibitedBy: [], mutedBy: [], silencedBy: [], state: 'active' });

function statusText(status: AlertView['status']): string {
  if (status.state === 'active' && status.inhibitedBy.length === 0 && status.mutedBy.length === 0 && status.silencedBy.length === 0) return ACTIVE_STATUS;
  return text({ inhibitedBy: status.inhibitedBy, mutedBy: status.mutedBy, silencedBy: status.silencedBy, state: status.state });
}

/** Receiver lists repeat from alert to alert: each distinct one is written once per answer. */
export class ReceiversText {
  private readonly written = new Map<string, string>();

  of(receivers: readonly string[]): string {
    const key = receivers.join('\u0000');
    let json = this.written.get(key);
    if (json === undefined) this.written.set(key, (json = text(receivers.map((name) => ({ name })))));
    return json;
  }
}

/** The parts of an alert's JSON that depend on the alert alone, around its receivers and status. */
interface AlertParts {
  /** `{"annotations":…,"endsAt":…,"fingerprint":…,"receivers":` */
  head: string;
  /** `,"startsAt":…,"status":` */
  middle: string;
  /** `,"updatedAt":…,"generatorURL":…,"labels":…}` */
  tail: string;
}

/**
 * Each stored alert's fixed parts, written once and kept while the alert is held: a stored alert
 * is never changed in place (a re-post stores a new object), so the object is the key, and a
 * listing of 100,000 alerts writes only statuses and receivers again.
 */
const written = new WeakMap<Alert, AlertParts>();

function partsOf(alert: Alert): AlertParts {
  let parts = written.get(alert);
  if (parts === undefined) {
    const url = alert.generatorURL === '' ? '' : `"generatorURL":${text(alert.generatorURL)},`;
    parts = {
      head: `{"annotations":${text(alert.annotations)},"endsAt":"${formatTime(alert.endsAt)}","fingerprint":"${alert.fingerprint}","receivers":`,
      middle: `,"startsAt":"${formatTime(alert.startsAt)}","status":`,
      tail: `,"updatedAt":"${formatTime(alert.updatedAt)}",${url}"labels":${text(alert.labels)}}`,
    };
    written.set(alert, parts);
  }
  return parts;
}

/**
 * One gettableAlert as JSON text, the same text JSON.stringify gives for
 * `{annotations, endsAt, fingerprint, receivers, startsAt, status, updatedAt, generatorURL?, labels}`.
 */
export function alertText(view: AlertView, receivers: ReceiversText): string {
  const parts = partsOf(view.alert);
  return parts.head + receivers.of(view.receivers) + parts.middle + statusText(view.status) + parts.tail;
}

/** One alertGroup as JSON text: `{alerts, labels, receiver, routeLabels}`. */
export function groupText(group: GroupView, receivers: ReceiversText): string {
  const alerts = group.alerts.map((view) => alertText(view, receivers)).join(',');
  return `{"alerts":[${alerts}],"labels":${text(group.labels)},"receiver":${text({ name: group.receiver })},"routeLabels":${text(group.routeLabels)}}`;
}

export function silenceJson(silence: Silence, now: number): Record<string, unknown> {
  return {
    id: silence.id,
    status: { state: silenceState(silence, now) },
    updatedAt: formatTime(silence.updatedAt),
    annotations: silence.annotations,
    comment: silence.comment,
    createdBy: silence.createdBy,
    endsAt: formatTime(silence.endsAt),
    matchers: silence.matchers.map((m) => ({ isEqual: m.type === '=' || m.type === '=~', isRegex: m.type === '=~' || m.type === '!~', name: m.name, value: m.value })),
    startsAt: formatTime(silence.startsAt),
  };
}
