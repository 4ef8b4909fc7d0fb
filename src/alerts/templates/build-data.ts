import type { LabelSet } from '../matchers/matcher.js';
import type { Alert } from '../model.js';
import { ZERO_TIME } from '../time.js';
import type { TemplateAlert, TemplateData } from './data.js';

export interface TemplateDataInput {
  receiver: string;
  groupLabels: LabelSet;
  alerts: readonly Alert[];
  externalUrl: string;
  now: number;
}

/** Go's regexp.QuoteMeta: a backslash before each of `\.+*?()|[]{}^$`. */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** The labels (or annotations) every one of `sets` has with the same value; empty for no sets. */
function common(sets: readonly LabelSet[]): Record<string, string> {
  const [first, ...rest] = sets;
  if (first === undefined) return {};
  const shared: Record<string, string> = {};
  for (const [name, value] of Object.entries(first)) {
    if (rest.every((set) => set[name] === value)) shared[name] = value;
  }
  return shared;
}

/** Alertmanager's template.Data for a notification of `alerts` (notify.GetTemplateData). */
export function templateData(input: TemplateDataInput): TemplateData {
  const alerts: TemplateAlert[] = input.alerts.map((alert) => {
    const firing = alert.endsAt > input.now || alert.endsAt === ZERO_TIME;
    return {
      status: firing ? 'firing' : 'resolved',
      labels: alert.labels,
      annotations: alert.annotations,
      startsAt: alert.startsAt,
      endsAt: firing ? ZERO_TIME : alert.endsAt,
      generatorURL: alert.generatorURL,
      fingerprint: alert.fingerprint,
    };
  });
  return {
    receiver: quoteMeta(input.receiver),
    status: alerts.some((alert) => alert.status === 'firing') ? 'firing' : 'resolved',
    alerts,
    groupLabels: input.groupLabels,
    commonLabels: common(alerts.map((alert) => alert.labels)),
    commonAnnotations: common(alerts.map((alert) => alert.annotations)),
    externalURL: input.externalUrl,
  };
}
