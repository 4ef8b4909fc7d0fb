/**
 * What the service traces with, as seen by the code that opens spans: no OpenTelemetry type
 * leaks out, and nothing here loads the SDK. With TRACING_ENABLED=false there is no Tracing
 * object at all, so request paths built without one run no tracing code.
 */

export type SpanAttributes = Record<string, string | number | boolean>;

/** Reads one incoming header (HTTP) or metadata entry (gRPC) by lower-case name. */
export type CarrierGetter = (name: string) => string | undefined;

/** A server span its opener finishes: the answer's status is only known at the end. */
export interface ServerSpan {
  setAttribute(key: string, value: string | number | boolean): void;
  /** Marks the span as failed with `message`. */
  fail(message: string): void;
  end(): void;
}

export interface Tracing {
  /** Lower-case header names the propagators read (W3C trace context, Zipkin B3). */
  readonly propagationHeaders: readonly string[];
  /**
   * Runs `run` in a SERVER span that continues the trace the carrier names (a `traceparent` or B3
   * headers; a new trace otherwise). Spans `run` opens, synchronously or in its promises, are its
   * children. `run` ends the span.
   */
  inServerSpan<T>(name: string, carrier: CarrierGetter, attributes: SpanAttributes, run: (span: ServerSpan) => T): T;
  /**
   * Runs `run` in a child span of the active one, ended when its result settles. `attributes` is
   * only called when the span is sampled (some are costly to build); `failure` names a result
   * that is an error though not thrown.
   */
  inSpan<T>(name: string, attributes: () => SpanAttributes, run: () => T | Promise<T>, failure?: (result: T) => string | undefined): T | Promise<T>;
  /**
   * As inSpan, for a span that opens no other (a store call, the reply): `run` does not run in
   * its context, which saves entering and leaving one.
   */
  inLeafSpan<T>(name: string, attributes: () => SpanAttributes, run: () => T | Promise<T>): T | Promise<T>;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  protocol: 'http' | 'grpc';
  serviceName: string;
  serviceNamespace: string;
  serviceInstanceId: string;
  /** ParentBased(TraceIdRatio(rate)). */
  samplingRate: number;
}
