import { SpanKind, SpanStatusCode, TraceFlags, context, propagation, trace, type Span, type TextMapGetter } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { B3Propagator } from '@opentelemetry/propagator-b3';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { CarrierGetter, ServerSpan, SpanAttributes, Tracing, TracingOptions } from './tracing.js';

const TRACER_NAME = 'ratelimit';
/**
 * B3's multi-header form. The B3 propagator reads it, but lists only the header it writes (`b3`)
 * among its fields, and HTTP requests are read for the listed names only.
 */
const B3_MULTI_HEADERS = ['x-b3-traceid', 'x-b3-spanid', 'x-b3-parentspanid', 'x-b3-sampled', 'x-b3-flags'];

const carrierGetter: TextMapGetter<CarrierGetter> = {
  get: (carrier, key) => carrier(key.toLowerCase()),
  keys: () => [],
};

function failSpan(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * The OpenTelemetry SDK of one thread (each deciding thread has its own): NodeSDK with a batch
 * processor to the OTLP exporter TRACING_EXPORTER_PROTOCOL picks (http/protobuf or gRPC; the
 * endpoint, headers, timeout and compression come from the standard OTEL_EXPORTER_OTLP_*
 * variables), ParentBased(TraceIdRatio) sampling, and W3C trace context and Zipkin B3
 * propagation. No instrumentation is installed: the spans are opened by hand where they belong.
 * NodeSDK's metric and log pipelines stay off.
 */
export function startOtelTracing(options: TracingOptions): Tracing {
  const exporter = options.protocol === 'grpc' ? new GrpcTraceExporter() : new HttpTraceExporter();
  const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new B3Propagator()] });
  const resource = resourceFromAttributes({
    'service.name': options.serviceName,
    'service.instance.id': options.serviceInstanceId,
    ...(options.serviceNamespace === '' ? {} : { 'service.namespace': options.serviceNamespace }),
  });
  const sdk = new NodeSDK({
    resource,
    autoDetectResources: false,
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.samplingRate) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
    textMapPropagator: propagator,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const tracer = trace.getTracer(TRACER_NAME);

  /** A child span of the active one around `run`; `enter`: `run` runs with the span active. */
  function traced<T>(name: string, attributes: () => SpanAttributes, run: () => T | Promise<T>, failure: ((result: T) => string | undefined) | undefined, enter: boolean): T | Promise<T> {
    // The parent was not sampled, so ParentBased samples none of its children: not opening them
    // saves most of the cost of the requests a low sampling rate leaves out.
    const parent = trace.getSpan(context.active());
    if (parent !== undefined && (parent.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return run();
    const span = tracer.startSpan(name);
    if (span.isRecording()) span.setAttributes(attributes());
    const settle = (result: T): T => {
      const message = failure?.(result);
      if (message !== undefined) failSpan(span, message);
      span.end();
      return result;
    };
    const thrown = (error: unknown): never => {
      span.recordException(error instanceof Error ? error : String(error));
      failSpan(span, error instanceof Error ? error.message : String(error));
      span.end();
      throw error;
    };
    let result: T | Promise<T>;
    try {
      result = enter ? context.with(trace.setSpan(context.active(), span), run) : run();
    } catch (error) {
      return thrown(error);
    }
    return result instanceof Promise ? result.then(settle, thrown) : settle(result);
  }

  return {
    propagationHeaders: [...new Set([...propagator.fields().map((f) => f.toLowerCase()), ...B3_MULTI_HEADERS])],

    inServerSpan(name, carrier, attributes, run) {
      const parent = propagation.extract(context.active(), carrier, carrierGetter);
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      const serverSpan: ServerSpan = {
        setAttribute: (key, value) => span.setAttribute(key, value),
        fail: (message) => failSpan(span, message),
        end: () => span.end(),
      };
      return context.with(trace.setSpan(parent, span), () => run(serverSpan));
    },

    inSpan: (name, attributes, run, failure) => traced(name, attributes, run, failure, true),
    inLeafSpan: (name, attributes, run) => traced(name, attributes, run, undefined, false),

    shutdown: () => sdk.shutdown(),
  };
}
