import type { AlertmanagerConfig } from '../config/model.js';
import type { Matcher } from '../matchers/matcher.js';
import { formatTime } from '../time.js';

/** What GET /status says about this process. */
export interface StatusSource {
  /** Process start, epoch ms (Alertmanager's `uptime` is its start time). */
  startedAt: number;
  version: string;
  revision: string;
}

/**
 * GET /api/v2/status. Clustering is not available in this service, so the cluster is
 * `disabled` with no peers and no name, as Alertmanager reports it with clustering off.
 */
export function statusJson(source: StatusSource, config: AlertmanagerConfig): Record<string, unknown> {
  return {
    cluster: { peers: [], status: 'disabled' },
    config: { original: config.original },
    uptime: formatTime(source.startedAt),
    versionInfo: {
      branch: 'main',
      buildDate: formatTime(source.startedAt),
      buildUser: 'ratelimit-node',
      goVersion: `node ${process.version}`,
      revision: source.revision,
      version: source.version,
    },
  };
}

/** GET /api/v2/receivers: config order; each receiver's labels are its `name`, as Alertmanager >= 0.33 adds it. */
export function receiversJson(config: AlertmanagerConfig, matchers: readonly Matcher[]): Array<Record<string, unknown>> {
  return config.receivers
    .filter((receiver) => matchers.every((m) => m.matches({ name: receiver.name })))
    .map((receiver) => ({ labels: { name: receiver.name }, name: receiver.name }));
}
