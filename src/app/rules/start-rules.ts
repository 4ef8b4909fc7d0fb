import { ConfigWatcher } from '../../config/index.js';
import type { Logger } from '../../observability/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { ProcessState } from '../process-state.js';
import type { ServiceSettings } from '../service-settings.js';
import { ConfigReloader } from './config-reloader.js';
import { RulesLoader } from './rules-loader.js';
import { startXdsRules } from './start-xds-rules.js';

/** What the rest of the service reads of the rules: the debug server's `/rlconfig` text. */
export interface RunningRules {
  readonly rlconfig: string;
}

/**
 * Loads the rules once (upstream blocks on its first config event too), then again on every change
 * under RUNTIME_ROOT, or takes them from an xDS server (CONFIG_TYPE=GRPC_XDS_SOTW). A failed first
 * load is only counted: requests then get "no configuration".
 */
export async function startRules(
  settings: ServiceSettings,
  state: ProcessState,
  inService: (generation: number) => Promise<void>,
  logger: Logger,
  lifecycle: Lifecycle,
  /** Ends the wait for an xDS server's first configuration (a stop asked for while starting). */
  stopSignal?: AbortSignal,
): Promise<RunningRules> {
  const location = {
    runtimeRoot: settings.runtimeRoot,
    runtimeSubdirectory: settings.runtimeSubdirectory,
    runtimeAppDirectory: settings.runtimeAppDirectory,
    watchRoot: settings.runtimeWatchRoot,
  };
  const loader = new RulesLoader({
    data: {
      files: { ...location, ignoreDotFiles: settings.runtimeIgnoreDotFiles, maxBytes: settings.configMaxBytes },
      mergeDomainConfigs: settings.mergeDomainConfig,
      mailboxBuffer: state.resources.mailboxBuffer,
      nice: settings.configLoaderNice,
    },
    maxHeapMb: settings.configLoaderMaxHeapMb,
    timeoutMs: settings.configLoadTimeoutMs,
    logger,
  });
  lifecycle.add('the rules loader', () => loader.close());
  const reloader = new ConfigReloader({ load: (resources) => loader.load(resources), inService, stats: state.stats, health: state.health, logger });
  if (settings.configType === 'GRPC_XDS_SOTW') {
    await startXdsRules(settings, reloader, logger, lifecycle, stopSignal);
    return reloader;
  }
  await reloader.reload();

  const watcher = new ConfigWatcher({ ...location, pollIntervalMs: settings.runtimeWatchPollMs, onChange: () => void reloader.reload() });
  watcher.start();
  lifecycle.add('the rules watcher', () => watcher.close());
  return reloader;
}
