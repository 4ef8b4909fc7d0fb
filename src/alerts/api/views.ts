import type { AlertView, GroupView } from '../alerts-service.js';
import type { Silence } from '../model.js';
import { silenceState } from '../model.js';
import { formatTime } from '../time.js';

/**
 * The JSON shapes of Alertmanager API v2 (v0.34), with Go's field order (go-swagger writes
 * fields alphabetically within each struct, an embedded struct's fields after its own).
 */

export function alertJson(view: AlertView): Record<string, unknown> {
  const { alert, receivers, status } = view;
  const json: Record<string, unknown> = {
    annotations: alert.annotations,
    endsAt: formatTime(alert.endsAt),
    fingerprint: alert.fingerprint,
    receivers: receivers.map((name) => ({ name })),
    startsAt: formatTime(alert.startsAt),
    status: { inhibitedBy: status.inhibitedBy, mutedBy: status.mutedBy, silencedBy: status.silencedBy, state: status.state },
    updatedAt: formatTime(alert.updatedAt),
  };
  if (alert.generatorURL !== '') json['generatorURL'] = alert.generatorURL;
  json['labels'] = alert.labels;
  return json;
}

export function groupJson(group: GroupView): Record<string, unknown> {
  return { alerts: group.alerts.map(alertJson), labels: group.labels, receiver: { name: group.receiver }, routeLabels: group.routeLabels };
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
