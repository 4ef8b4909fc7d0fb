/**
 * What tests of receiver integrations share: a receiver loaded from configuration text as the
 * service loads it, a notification request for some alerts, and literal templates.
 *
 * The templates here render text without actions as itself and fail on anything else: enough
 * for tests of how a message is built and sent, where the template engine is not what is under
 * test.
 */
import { loadAlertmanagerConfig, type Receiver } from '../../src/alerts/config/index.js';
import type { NotifyRequest } from '../../src/alerts/notify/integration.js';
import type { Templates } from '../../src/alerts/templates/templates.js';
import { ZERO_TIME } from '../../src/alerts/time.js';

export const literalTemplates: Templates = {
  text: (text) => (text.includes('{{') ? { ok: false, error: `template: literal templates only: ${text}` } : { ok: true, value: text }),
  html: (text) => (text.includes('{{') ? { ok: false, error: `template: literal templates only: ${text}` } : { ok: true, value: text }),
};

/** The receiver `r` of a configuration whose `global` block and `r`'s integration lists are given. */
export function receiverFrom(global: string, integrations: string): Receiver {
  const loaded = loadAlertmanagerConfig(`global:\n${global || '  resolve_timeout: 5m\n'}route:\n  receiver: r\nreceivers:\n- name: r\n${integrations}`);
  if (!loaded.ok) throw new Error(loaded.error);
  const receiver = loaded.value.receivers[0];
  if (receiver === undefined) throw new Error('no receiver');
  return receiver;
}

export const T0 = Date.parse('2026-11-25T10:00:00Z');

/** A request for alerts named by `names`, firing unless listed in `resolved`. */
export function requestFor(names: readonly string[], options: { resolved?: readonly string[]; signal?: AbortSignal; groupKey?: string } = {}): NotifyRequest {
  return {
    receiver: 'r',
    groupKey: options.groupKey ?? '{}:{alertname="Disk"}',
    groupLabels: { alertname: 'Disk' },
    alerts: names.map((name, i) => ({
      fingerprint: `f${i}`,
      labels: { alertname: 'Disk', instance: name },
      annotations: { summary: `disk of ${name}` },
      startsAt: T0 - 60_000,
      endsAt: options.resolved?.includes(name) === true ? T0 - 1000 : ZERO_TIME,
      updatedAt: T0,
      generatorURL: `http://prometheus/graph?${name}`,
      timeout: false,
    })),
    externalUrl: 'http://alerts.example:9093',
    signal: options.signal ?? new AbortController().signal,
    now: T0,
  };
}
