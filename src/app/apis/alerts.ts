import { readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { AlertsService, alertsApi, loadAlertmanagerConfig, Notifier, Slicer, SqliteNotificationStore, SqliteStateStore, unsupportedIntegrations, type AlertmanagerConfig } from '../../alerts/index.js';
import { StatsStore, type Logger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import type { ApiDefinition } from '../../transports/http/handoff/index.js';
import { AlertRefusals } from './alerts-refusals.js';

/** Without ALERTMANAGER_CONFIG: one receiver with no integrations, which every alert routes to. */
const BUILT_IN_CONFIG = 'route:\n  receiver: default\nreceivers:\n  - name: default\n';
/** How often the configuration file is checked for a change. */
const CONFIG_POLL_MS = 1000;
/** How often resolved alerts past ALERTMANAGER_RESOLVED_RETENTION are dropped. */
const DROP_RESOLVED_MS = 1000;
/** How often notification log entries and history past their retention are dropped (Alertmanager's maintenance interval). */
const NOTIFICATION_PRUNE_MS = 15 * 60_000;

/** Statistics of the alert API. */
export const ALERTS_REFUSED_STAT = 'ratelimit.alerts.refused_full';
export const ALERTS_HELD_STAT = 'ratelimit.alerts.held';

export interface AlertsRuntime {
  api: ApiDefinition;
  /** Settles once the alert state has loaded (rejects when it could not load). */
  loaded: Promise<void>;
  close(): Promise<void>;
}

export interface AlertsRuntimeOptions {
  now?: () => number;
  /** Where the alert API counts (the API thread's statistics); a store of its own when absent. */
  stats?: StatsStore;
}

async function readConfig(path: string): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
  if (path === '') return { ok: true, text: BUILT_IN_CONFIG };
  try {
    return { ok: true, text: await readFile(path, 'utf8') };
  } catch (error) {
    return { ok: false, error: `cannot read ALERTMANAGER_CONFIG ${path}: ${(error as Error).message}` };
  }
}

/**
 * The alert management API on the calling thread (the API thread): its configuration (watched,
 * reloaded on change or POST /-/reload, the old one kept on error), its durable state under
 * DATA_DIR, and the dropping of resolved alerts and old silences.
 *
 * Returns at once, with the state still loading in the background a slice at a time: meanwhile
 * `/-/healthy` answers, `/-/ready` answers 503, and so do the alert and silence routes.
 */
export async function openAlerts(settings: Settings, logger: Logger, options: AlertsRuntimeOptions = {}): Promise<AlertsRuntime> {
  const now = options.now ?? Date.now;
  const stats = options.stats ?? new StatsStore();
  // `templates:` globs and `*_file` paths are relative to the configuration file, as Alertmanager reads them.
  const baseDir = settings.alertmanagerConfig === '' ? process.cwd() : dirname(resolve(settings.alertmanagerConfig));
  const loadOptions = { baseDir };
  const first = await readConfig(settings.alertmanagerConfig);
  const loaded = first.ok ? loadAlertmanagerConfig(first.text, loadOptions) : first;
  if (!loaded.ok) throw new Error(`alert API configuration (ALERTMANAGER_CONFIG): ${loaded.error}`);
  const store = new SqliteStateStore(join(settings.dataDir, 'alerts'), settings.dataSync);
  const notificationStore = new SqliteNotificationStore(join(settings.dataDir, 'alerts'), settings.dataSync);
  const service = new AlertsService({
    config: loaded.value,
    store,
    silenceLimits: { maxSilences: settings.alertmanagerMaxSilences, maxSilenceBytes: settings.alertmanagerMaxSilenceBytes },
    retentionMs: settings.alertmanagerRetentionMs,
    resolvedRetentionMs: settings.alertmanagerResolvedRetentionMs,
    maxAlerts: settings.alertmanagerMaxAlerts,
  });

  // Receivers of kinds this service does not send are accepted, as Alertmanager accepts them, and named.
  const reportUnsupported = (config: AlertmanagerConfig) => {
    for (const line of unsupportedIntegrations(config)) logger.warn(line);
  };
  reportUnsupported(loaded.value);
  const notifier = new Notifier({
    config: loaded.value,
    store: notificationStore,
    stats,
    logger,
    externalUrl: externalUrl(settings),
    baseDir,
    logRetentionMs: settings.alertmanagerRetentionMs,
    historyRetentionMs: settings.alertmanagerNotificationHistoryRetentionMs,
    suppression: (at) => service.suppression(at),
  });
  service.notifyWith(notifier);

  const reload = async (): Promise<string | undefined> => {
    const read = await readConfig(settings.alertmanagerConfig);
    const next = read.ok ? loadAlertmanagerConfig(read.text, loadOptions) : read;
    if (!next.ok) {
      logger.error('alert API configuration not reloaded; the previous one stays', { error: next.error });
      return next.error;
    }
    service.reconfigure(next.value);
    logger.info('alert API configuration reloaded');
    reportUnsupported(next.value);
    return undefined;
  };

  let lastSeen = '';
  const fileState = async () => {
    const info = await stat(settings.alertmanagerConfig).catch(() => undefined);
    return info === undefined ? 'missing' : `${info.ino}:${info.size}:${info.mtimeMs}`;
  };
  if (settings.alertmanagerConfig !== '') lastSeen = await fileState();
  const watch = setInterval(() => {
    if (settings.alertmanagerConfig === '') return;
    void fileState().then(async (seen) => {
      if (seen === lastSeen) return;
      lastSeen = seen;
      await reload();
    });
  }, CONFIG_POLL_MS);
  watch.unref();

  const held = stats.gauge(ALERTS_HELD_STAT);
  const timers: NodeJS.Timeout[] = [watch];
  const every = (ms: number, what: string, work: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      work()
        .then(() => (held.value = service.alertCount))
        .catch((error: unknown) => logger.error(`${what} failed`, { error: String(error) }));
    }, ms);
    timer.unref();
    timers.push(timer);
  };

  let ready = false;
  const loading = new AbortController();
  const loadStarted = performance.now();
  const loadedState = service.load(now(), new Slicer(undefined, loading.signal)).then(() => {
    ready = true;
    held.value = service.alertCount;
    logger.info('alert state loaded', { alerts: service.alertCount, ms: Math.round(performance.now() - loadStarted) });
    every(DROP_RESOLVED_MS, 'dropping resolved alerts', () => service.dropResolved(now()));
    every(settings.alertmanagerGcIntervalMs, 'alert garbage collection', () => service.collectGarbage(now()));
    every(NOTIFICATION_PRUNE_MS, 'notification history pruning', async () => notifier.prune(now()));
  });
  loadedState.catch((error: unknown) => {
    if (!loading.signal.aborted) logger.error('alert state did not load: the alert and silence routes answer 503', { error: String(error) });
  });

  const refusals = new AlertRefusals(logger, stats.counter(ALERTS_REFUSED_STAT), settings.alertmanagerMaxAlerts, now);
  const startedAt = now();
  const api = alertsApi({
    readiness: { isReady: () => ready },
    service,
    status: { startedAt, version: VERSION, revision: 'unknown' },
    reload,
    maxAlertsPerRequest: settings.alertmanagerMaxAlertsPerRequest,
    maxSilenceMatcherBytes: settings.alertmanagerMaxSilenceMatcherBytes,
    maxAlerts: settings.alertmanagerMaxAlerts,
    alertsRefused: (count) => refusals.refused(count),
    history: (query) => notifier.history(query),
    now,
  });
  return {
    api,
    loaded: loadedState,
    async close() {
      loading.abort();
      await loadedState.catch(() => undefined);
      for (const timer of timers) clearInterval(timer);
      refusals.close();
      await notifier.stop();
      await service.stop();
      await store.close();
      notificationStore.close();
    },
  };
}

/** ALERTMANAGER_EXTERNAL_URL without a trailing slash, or Alertmanager's default: this host's name and the HTTP port. */
function externalUrl(settings: Settings): string {
  return settings.alertmanagerExternalUrl === '' ? `http://${hostname()}:${settings.port}` : settings.alertmanagerExternalUrl.replace(/\/+$/, '');
}

/** This service's version, as GET /api/v2/status reports it. */
const VERSION = '0.1.0';
