import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AlertsService, alertsApi, loadAlertmanagerConfig, SqliteStateStore } from '../alerts/index.js';
import type { Logger } from '../observability/index.js';
import type { Settings } from '../settings/index.js';
import type { ApiDefinition } from '../transports/http/handoff/index.js';

/** Without ALERTMANAGER_CONFIG: one receiver with no integrations, which every alert routes to. */
const BUILT_IN_CONFIG = 'route:\n  receiver: default\nreceivers:\n  - name: default\n';
/** How often the configuration file is checked for a change. */
const CONFIG_POLL_MS = 1000;

export interface AlertsRuntime {
  api: ApiDefinition;
  close(): Promise<void>;
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
 * DATA_DIR, and the garbage collection of resolved alerts and old silences.
 */
export async function openAlerts(settings: Settings, logger: Logger, now: () => number = Date.now): Promise<AlertsRuntime> {
  const first = await readConfig(settings.alertmanagerConfig);
  const loaded = first.ok ? loadAlertmanagerConfig(first.text) : first;
  if (!loaded.ok) throw new Error(`alert API configuration (ALERTMANAGER_CONFIG): ${loaded.error}`);
  const store = new SqliteStateStore(join(settings.dataDir, 'alerts'), settings.dataSync);
  const service = await AlertsService.open({
    config: loaded.value,
    store,
    silenceLimits: { maxSilences: settings.alertmanagerMaxSilences, maxSilenceBytes: settings.alertmanagerMaxSilenceBytes },
    retentionMs: settings.alertmanagerRetentionMs,
  });

  const reload = async (): Promise<string | undefined> => {
    const read = await readConfig(settings.alertmanagerConfig);
    const next = read.ok ? loadAlertmanagerConfig(read.text) : read;
    if (!next.ok) {
      logger.error('alert API configuration not reloaded; the previous one stays', { error: next.error });
      return next.error;
    }
    service.reconfigure(next.value);
    logger.info('alert API configuration reloaded');
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
  const gc = setInterval(() => {
    service.collectGarbage(now()).catch((error: unknown) => logger.error('alert garbage collection failed', { error: String(error) }));
  }, settings.alertmanagerGcIntervalMs);
  gc.unref();

  const startedAt = now();
  const api = alertsApi({
    readiness: { isReady: () => true },
    service,
    status: { startedAt, version: VERSION, revision: 'unknown' },
    reload,
    maxAlertsPerRequest: settings.alertmanagerMaxAlertsPerRequest,
    now,
  });
  return {
    api,
    async close() {
      clearInterval(watch);
      clearInterval(gc);
      await store.close();
    },
  };
}

/** This service's version, as GET /api/v2/status reports it. */
const VERSION = '0.1.0';
