import type { LabelSet } from '../matchers/matcher.js';

/**
 * What a notification template sees: Alertmanager's `template.Data`
 * (https://prometheus.io/docs/alerting/latest/notifications/#data), with times as epoch
 * milliseconds. Templates name the fields as Go does (`.Receiver`, `.Alerts.Firing`,
 * `.CommonLabels.SortedPairs`); the template engine maps those names onto these.
 */
export interface TemplateData {
  /** The receiver's name passed through Go's regexp.QuoteMeta, as Alertmanager does. */
  receiver: string;
  /** `firing` when any alert is firing, else `resolved`. */
  status: 'firing' | 'resolved';
  alerts: readonly TemplateAlert[];
  groupLabels: LabelSet;
  /** Labels and annotations every alert has with the same value. */
  commonLabels: LabelSet;
  commonAnnotations: LabelSet;
  externalURL: string;
}

export interface TemplateAlert {
  status: 'firing' | 'resolved';
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  /** Go's zero time (-Infinity) for a firing alert: Alertmanager zeroes it before notifying. */
  endsAt: number;
  generatorURL: string;
  fingerprint: string;
}
