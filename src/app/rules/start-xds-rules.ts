import { AdsClient, type AdsEvent } from '../../config/xds/index.js';
import type { Logger } from '../../observability/index.js';
import type { Lifecycle } from '../lifecycle.js';
import type { ServiceSettings } from '../service-settings.js';
import type { ConfigReloader } from './config-reloader.js';

/**
 * CONFIG_TYPE=GRPC_XDS_SOTW: the rules come from an ADS server; each response is applied as a
 * reload of files would be (validated on the rules loader thread, published to every thread) and
 * ACKed, or NACKed with the error while the rules in service stay. Without
 * FORCE_START_WITHOUT_INITIAL_CONFIG the start waits for the first configuration, as upstream.
 */
export async function startXdsRules(settings: ServiceSettings, reloader: ConfigReloader, logger: Logger, lifecycle: Lifecycle, stopSignal?: AbortSignal): Promise<void> {
  let firstApplied: () => void = () => undefined;
  let stopped: (reason: unknown) => void = () => undefined;
  const first = new Promise<void>((resolve, reject) => {
    firstApplied = resolve;
    stopped = reject;
  });
  const client = new AdsClient({
    serverUrl: settings.xdsServerUrl,
    nodeId: settings.xdsNodeId,
    nodeMetadata: settings.xdsNodeMetadata,
    headers: settings.xdsClientAdditionalHeaders,
    tls: settings.xdsServerUseTls
      ? { caFile: settings.xdsServerTlsCacert, certFile: settings.xdsClientTlsCert, keyFile: settings.xdsClientTlsKey, san: settings.xdsServerTlsSan }
      : undefined,
    maxMessageBytes: settings.xdsMaxMessageBytes,
    backoff: { initialMs: settings.xdsBackoffInitialMs, maxMs: settings.xdsBackoffMaxMs, factor: settings.xdsBackoffFactor, jitter: settings.xdsBackoffJitter },
    connectRetryMs: settings.xdsServerConnectRetryIntervalMs,
    apply: async (resources) => {
      const error = await reloader.apply(resources);
      if (error === undefined) firstApplied();
      return error;
    },
    onEvent: (event) => logEvent(logger, event),
  });
  client.start();
  lifecycle.add('the xDS client', () => client.close());
  if (settings.forceStartWithoutInitialConfig) return;
  logger.info('waiting for the first configuration from the xDS server', { server: settings.xdsServerUrl });
  // A server that never answers must not hold a stop: the wait ends with the stop's reason.
  const onStop = () => stopped(stopSignal?.reason);
  stopSignal?.addEventListener('abort', onStop, { once: true });
  if (stopSignal?.aborted === true) onStop();
  try {
    await first;
  } finally {
    stopSignal?.removeEventListener('abort', onStop);
  }
}

function logEvent(logger: Logger, event: AdsEvent): void {
  if (event.kind === 'acked') logger.info('xDS configuration applied', { version: event.version });
  else if (event.kind === 'nacked') logger.warn('xDS configuration refused; the rules in service stay', { version: event.version, error: event.error });
  else logger.warn('xDS stream failed; reconnecting', { error: event.error, retryInMs: Math.round(event.retryInMs) });
}
