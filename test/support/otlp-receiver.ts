/**
 * A real OTLP trace receiver for tests: OTLP/HTTP (protobuf or JSON, optionally gzipped) or
 * OTLP/gRPC on a free port of 127.0.0.1. It decodes every export request and keeps the spans,
 * so a test can point an exporter (or the service, through OTEL_EXPORTER_OTLP_ENDPOINT) at it
 * and assert on names, parents and attributes.
 *
 *   const otlp = await startOtlpReceiver(t, 'grpc');
 *   const app = await startService(t, { env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint } });
 *   const spans = await otlp.waitFor((s) => s.some((span) => span.kind === 2 && span.parentSpanId === ''));
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import type { Teardown } from './teardown.js';

export type OtlpProtocol = 'http' | 'grpc';
export type AttributeValue = string | number | boolean | AttributeValue[];

export interface ReceivedSpan {
  /** 32 lower-case hex characters. */
  traceId: string;
  /** 16 lower-case hex characters. */
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** The OTLP SpanKind (the API's SpanKind plus one): 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** Resource attributes (service.name etc.). */
  resource: Record<string, AttributeValue>;
  /** Instrumentation scope name. */
  scope: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  status: { code: number; message: string };
  traceState: string;
}

export interface OtlpReceiver {
  readonly protocol: OtlpProtocol;
  /** Base endpoint to give an exporter: `http://127.0.0.1:PORT` (for HTTP the exporter appends /v1/traces when given OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly endpoint: string;
  readonly port: number;
  /** Every span received so far, in arrival order. */
  readonly spans: readonly ReceivedSpan[];
  /** How many export requests arrived and were decoded (including empty ones). */
  readonly requests: number;
  /**
   * Resolves with `spans` once `predicate(spans)` is true, checked now and on every arrival;
   * rejects after `timeoutMs` (default 10 s), or on close, naming the spans received.
   */
  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<readonly ReceivedSpan[]>;
  close(): Promise<void>;
}

/**
 * The part of the OTLP protos a receiver reads (collector/trace/v1/trace_service.proto,
 * trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto), with their field
 * numbers. Fields left out (events, links, flags, dropped counts) are skipped when decoding.
 * The installed @opentelemetry/otlp-transformer only encodes requests, so it cannot decode them.
 */
const OTLP_PROTO = `
syntax = "proto3";
package otlp;

message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  Status status = 15;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const ExportTraceServiceRequest = protobuf.parse(OTLP_PROTO).root.lookupType('otlp.ExportTraceServiceRequest');
const EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
/** An empty ExportTraceServiceResponse: all its fields are absent, so zero bytes. */
const EMPTY_RESPONSE = Buffer.alloc(0);
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Decodes a binary request into the same shape OTLP/JSON has (camelCase names, 64-bit integers
 * as decimal strings), so one walk reads both; bytes come out base64, as in JSON.
 */
function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const message = ExportTraceServiceRequest.decode(body);
  const plain: unknown = ExportTraceServiceRequest.toObject(message, { longs: String, bytes: String });
  return spansOf(plain, (id) => Buffer.from(id, 'base64').toString('hex'));
}

/** OTLP/JSON differs from the protobuf JSON mapping in one way that matters: ids are hex, not base64. */
function decodeJson(body: Buffer): ReceivedSpan[] {
  const plain: unknown = JSON.parse(body.toString('utf8'));
  return spansOf(plain, (id) => id.toLowerCase());
}

function spansOf(request: unknown, idToHex: (id: string) => string): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of list(field(request, 'resourceSpans'))) {
    const resource = attributesOf(field(field(resourceSpans, 'resource'), 'attributes'));
    for (const scopeSpans of list(field(resourceSpans, 'scopeSpans'))) {
      const scope = text(field(field(scopeSpans, 'scope'), 'name'));
      for (const span of list(field(scopeSpans, 'spans'))) {
        const status = field(span, 'status');
        spans.push({
          traceId: idToHex(text(field(span, 'traceId'))),
          spanId: idToHex(text(field(span, 'spanId'))),
          parentSpanId: idToHex(text(field(span, 'parentSpanId'))),
          name: text(field(span, 'name')),
          kind: Number(field(span, 'kind') ?? 0),
          attributes: attributesOf(field(span, 'attributes')),
          resource,
          scope,
          startTimeUnixNano: nanos(field(span, 'startTimeUnixNano')),
          endTimeUnixNano: nanos(field(span, 'endTimeUnixNano')),
          status: { code: Number(field(status, 'code') ?? 0), message: text(field(status, 'message')) },
          traceState: text(field(span, 'traceState')),
        });
      }
    }
  }
  return spans;
}

function attributesOf(keyValues: unknown): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const keyValue of list(keyValues)) attributes[text(field(keyValue, 'key'))] = anyValue(field(keyValue, 'value'));
  return attributes;
}

/**
 * AttributeValue has no room for the rarer AnyValue forms: bytes stay base64 text, a key-value
 * list becomes an array of [key, value] pairs, an empty value becomes ''. Integers beyond 2^53
 * lose precision, as any JavaScript number would.
 */
function anyValue(value: unknown): AttributeValue {
  const string = field(value, 'stringValue');
  if (string !== undefined) return text(string);
  const bool = field(value, 'boolValue');
  if (bool !== undefined) return bool === true;
  const int = field(value, 'intValue');
  if (int !== undefined) return Number(int);
  const double = field(value, 'doubleValue');
  if (double !== undefined) return Number(double); // JSON writes NaN and Infinity as strings
  const array = field(value, 'arrayValue');
  if (array !== undefined) return list(field(array, 'values')).map(anyValue);
  const kvlist = field(value, 'kvlistValue');
  if (kvlist !== undefined) return list(field(kvlist, 'values')).map((kv) => [text(field(kv, 'key')), anyValue(field(kv, 'value'))]);
  const bytes = field(value, 'bytesValue');
  if (bytes !== undefined) return text(bytes);
  return '';
}

/** A property of an object, undefined for anything else (the walk tolerates missing parts). */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Timestamps arrive as decimal strings (protobuf via toObject, and usually JSON) or JSON numbers. */
function nanos(value: unknown): bigint {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return 0n;
}

/** The received spans and the waits on them; the transports only call `accept`. */
class SpanLog {
  readonly spans: ReceivedSpan[] = [];
  requests = 0;
  private readonly waiters = new Set<{ check(): void; fail(reason: string): void }>();

  accept(spans: ReceivedSpan[]): void {
    this.requests++;
    this.spans.push(...spans);
    for (const waiter of [...this.waiters]) waiter.check();
  }

  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<readonly ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        outcome();
      };
      const waiter = {
        check: (): void => {
          let done: boolean;
          try {
            done = predicate(this.spans);
          } catch (error) {
            settle(() => reject(error));
            return;
          }
          if (done) settle(() => resolve(this.spans));
        },
        fail: (reason: string): void => settle(() => reject(new Error(`${reason}; ${this.describe()}`))),
      };
      const timer = setTimeout(() => waiter.fail(`no match within ${timeoutMs} ms`), timeoutMs);
      this.waiters.add(waiter);
      waiter.check();
    });
  }

  close(): void {
    for (const waiter of [...this.waiters]) waiter.fail('receiver closed');
  }

  private describe(): string {
    const names = this.spans.map((span) => span.name);
    return `received ${names.length} span(s) in ${this.requests} request(s): ${JSON.stringify(names)}`;
  }
}

interface Listening {
  port: number;
  close(): Promise<void>;
}

const gunzipAsync = promisify(gunzip);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function handleHttp(log: SpanLog, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const reply = (status: number, contentType: string, body: Buffer | string): void => {
    response.writeHead(status, { 'Content-Type': contentType }).end(body);
  };
  const path = (request.url ?? '').split('?')[0];
  if (request.method !== 'POST' || path !== '/v1/traces') {
    request.resume();
    return reply(404, 'text/plain', 'not found\n');
  }
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if ((mediaType !== 'application/x-protobuf' && mediaType !== 'application/json') || (encoding !== 'identity' && encoding !== 'gzip')) {
    request.resume();
    return reply(415, 'text/plain', `unsupported: Content-Type ${mediaType || '(none)'}, Content-Encoding ${encoding}\n`);
  }
  let spans: ReceivedSpan[];
  try {
    const raw = await readBody(request);
    const body = encoding === 'gzip' ? await gunzipAsync(raw) : raw;
    spans = mediaType === 'application/json' ? decodeJson(body) : decodeProtobuf(body);
  } catch (error) {
    return reply(400, 'text/plain', `undecodable ExportTraceServiceRequest: ${String(error)}\n`);
  }
  log.accept(spans);
  if (mediaType === 'application/json') reply(200, 'application/json', '{}');
  else reply(200, 'application/x-protobuf', EMPTY_RESPONSE);
}

function listenHttp(log: SpanLog): Promise<Listening> {
  const server = createServer((request, response) => {
    handleHttp(log, request, response).catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no TCP address'));
      resolve({
        port: address.port,
        close: () =>
          new Promise<void>((done, failed) => {
            server.close((error) => (error ? failed(error) : done()));
            // Exporters keep connections alive; close() alone would wait for them.
            server.closeAllConnections();
          }),
      });
    });
  });
}

const identity = (bytes: Buffer): Buffer => bytes;

function listenGrpc(log: SpanLog): Promise<Listening> {
  const server = new grpc.Server();
  // Raw bytes through grpc-js: decoding here lets a bad request become INVALID_ARGUMENT.
  const definition: grpc.ServiceDefinition = {
    Export: { path: EXPORT_PATH, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity },
  };
  const exportSpans: grpc.handleUnaryCall<Buffer, Buffer> = (call, callback) => {
    let spans: ReceivedSpan[];
    try {
      spans = decodeProtobuf(call.request);
    } catch (error) {
      return callback({ code: grpc.status.INVALID_ARGUMENT, details: `undecodable ExportTraceServiceRequest: ${String(error)}` });
    }
    log.accept(spans);
    callback(null, EMPTY_RESPONSE);
  };
  server.addService(definition, { Export: exportSpans });
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) return reject(error);
      resolve({ port, close: () => new Promise<void>((done, failed) => server.tryShutdown((shutdownError) => (shutdownError ? failed(shutdownError) : done()))) });
    });
  });
}

/** A receiver on a free port of 127.0.0.1, closed in `t`'s teardown. */
export async function startOtlpReceiver(t: Teardown, protocol: OtlpProtocol): Promise<OtlpReceiver> {
  const log = new SpanLog();
  const listening = protocol === 'http' ? await listenHttp(log) : await listenGrpc(log);
  let closing: Promise<void> | undefined;
  const receiver: OtlpReceiver = {
    protocol,
    port: listening.port,
    endpoint: `http://127.0.0.1:${listening.port}`,
    get spans() {
      return log.spans;
    },
    get requests() {
      return log.requests;
    },
    waitFor: (predicate, timeoutMs) => log.waitFor(predicate, timeoutMs),
    close: () => {
      log.close();
      closing ??= listening.close();
      return closing;
    },
  };
  t.teardown(() => receiver.close());
  return receiver;
}
