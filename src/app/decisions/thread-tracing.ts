import { startTracing, type Tracing } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';

/**
 * The calling thread's tracing, or undefined with TRACING_ENABLED=false (the SDK is then never
 * loaded). Every thread that decides starts its own; they share the service instance id the main
 * thread drew, since settings travel to the threads whole.
 */
export function startThreadTracing(settings: Settings): Promise<Tracing | undefined> {
  if (!settings.tracingEnabled) return Promise.resolve(undefined);
  return startTracing({
    protocol: settings.tracingExporterProtocol,
    serviceName: settings.tracingServiceName,
    serviceNamespace: settings.tracingServiceNamespace,
    serviceInstanceId: settings.tracingServiceInstanceId,
    samplingRate: settings.tracingSamplingRate,
  });
}

/**
 * How long a stop waits for the last spans to be exported. An exporter retries a collector that
 * is down until its own timeout (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s), which would otherwise hold
 * every stop; spans still unsent then are dropped, as a collector that is down loses them anyway.
 */
export const TRACING_FLUSH_AT_STOP_MS = 1000;
