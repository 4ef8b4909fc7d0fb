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
