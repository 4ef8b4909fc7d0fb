import type { Tracing, TracingOptions } from './tracing.js';

/** Loads the OpenTelemetry SDK (only now) and starts it for the calling thread. */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const { startOtelTracing } = await import('./otel-tracing.js');
  return startOtelTracing(options);
}
