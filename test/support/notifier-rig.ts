/**
 * The alert state and the notifier together on a clock the test moves: a real AlertsService and
 * Notifier over SQLite in a temp directory, sending through real HTTP, with group_wait,
 * group_interval and retries driven by `clock.advance`.
 *
 *   const rig = await startNotifierRig(t, { config: yamlText });
 *   await rig.post([{ labels: { alertname: 'R1' } }]);
 *   await rig.clock.advance(1000);
 */
import { loadAlertmanagerConfig } from '../../src/alerts/config/index.js';
import { AlertsService, type IncomingAlert } from '../../src/alerts/alerts-service.js';
import { Notifier } from '../../src/alerts/notify/notifier.js';
import { SqliteNotificationStore } from '../../src/alerts/notify/notification-store.js';
import { Slicer } from '../../src/alerts/slicer.js';
import { SqliteStateStore } from '../../src/alerts/state/sqlite-state-store.js';
import { ZERO_TIME } from '../../src/alerts/time.js';
import { silentLogger, StatsStore } from '../../src/observability/index.js';
import { ManualClock } from './manual-clock.js';
import type { Teardown } from './teardown.js';
import { tempDir } from './temp-dir.js';

export const RIG_EXTERNAL_URL = 'http://alerts.example:9093';

export interface NotifierRig {
  clock: ManualClock;
  service: AlertsService;
  notifier: Notifier;
  stats: StatsStore;
  /** Posts alerts as POST /api/v2/alerts would (times default to "not set"). */
  post(alerts: ReadonlyArray<Partial<IncomingAlert> & { labels: Record<string, string> }>): Promise<void>;
  /** Stops the notifier and closes the stores, as a stopping service does. */
  stop(): Promise<void>;
  /** A new rig on the same data directory and clock (a restart). */
  restart(): Promise<NotifierRig>;
}

export interface RigOptions {
  config: string;
  start?: number;
  dataDir?: string;
  clock?: ManualClock;
}

export async function startNotifierRig(t: Teardown, options: RigOptions): Promise<NotifierRig> {
  const loaded = loadAlertmanagerConfig(options.config);
  if (!loaded.ok) throw new Error(loaded.error);
  const clock = options.clock ?? new ManualClock(options.start ?? Date.parse('2026-11-21T22:39:24.161Z'));
  const dataDir = options.dataDir ?? (await tempDir(t, 'rl-notify-'));
  const store = new SqliteStateStore(dataDir, 'full');
  const notificationStore = new SqliteNotificationStore(dataDir, 'full');
  const stats = new StatsStore();
  const service = new AlertsService({ config: loaded.value, store, silenceLimits: { maxSilences: 0, maxSilenceBytes: 0 }, retentionMs: 120 * 3_600_000, resolvedRetentionMs: 5000, maxAlerts: 0 });
  const notifier = new Notifier({
    config: loaded.value,
    store: notificationStore,
    stats,
    logger: silentLogger,
    externalUrl: RIG_EXTERNAL_URL,
    baseDir: dataDir,
    logRetentionMs: 120 * 3_600_000,
    historyRetentionMs: 120 * 3_600_000,
    suppression: (now) => service.suppression(now),
    clock,
    random: () => 0.5,
  });
  service.notifyWith(notifier);
  await service.load(clock.now(), new Slicer());
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await notifier.stop();
    await service.stop();
    store.close();
    notificationStore.close();
  };
  t.teardown(stop);
  return {
    clock,
    service,
    notifier,
    stats,
    async post(alerts) {
      const incoming = alerts.map((a) => ({ annotations: {}, startsAt: ZERO_TIME, endsAt: ZERO_TIME, generatorURL: '', ...a }));
      const outcome = await service.postAlerts(incoming, clock.now());
      if (outcome.errors.length > 0) throw new Error(outcome.errors.join('; '));
    },
    stop,
    async restart() {
      await stop();
      return startNotifierRig(t, { ...options, dataDir, clock });
    },
  };
}
