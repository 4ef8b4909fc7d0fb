/**
 * A small grpc-js client for tests: ShouldRateLimit (protobuf via the service's own codec),
 * raw bytes on any method (identity serializers), and grpc.health.v1 Check/Watch, over plain
 * TCP, unix sockets, TLS and mutual TLS.
 *
 *   const client = new RlsClient(`127.0.0.1:${app.grpcPort}`);
 *   const r = await client.call({ domain: 'basic', descriptors: [D('key1', 'foo')] });
 *   if (r.ok) t.same(toJsonShape(r.response), response('OK', [...]));
 *   client.close();
 *
 * Calls never throw for a gRPC status: they resolve with `{ ok: false, code, details }`.
 */
import * as grpc from '@grpc/grpc-js';
import { HEALTH_PROTO, HEALTH_SERVICE, loadProtos } from '../../src/transports/grpc/index.js';
import { decodeRateLimitResponse, encodeRateLimitRequest, SHOULD_RATE_LIMIT_PATH } from '../../src/ratelimit/grpc/index.js';

export type GrpcResult<T> = { ok: true; response: T } | { ok: false; code: number; details: string };

export interface TlsFiles {
  /** CA that signed the server certificate (PEM). */
  ca: Buffer;
  /** Client certificate and key for mutual TLS (PEM). */
  cert?: Buffer;
  key?: Buffer;
}

/** Credentials: plaintext when `tls` is absent. */
export function channelCredentials(tls?: TlsFiles): grpc.ChannelCredentials {
  if (tls === undefined) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(tls.ca, tls.key ?? null, tls.cert ?? null);
}

const root = loadProtos([HEALTH_PROTO]);
const HealthRequest = root.lookupType('grpc.health.v1.HealthCheckRequest');
const HealthResponse = root.lookupType('grpc.health.v1.HealthCheckResponse');
const HealthStatus = root.lookupEnum('grpc.health.v1.HealthCheckResponse.ServingStatus');

export type HealthStatusName = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

const encodeHealth = (service: string): Buffer => Buffer.from(HealthRequest.encode({ service }).finish());
const decodeHealth = (bytes: Buffer): HealthStatusName => {
  const message = HealthResponse.decode(bytes) as unknown as { status: number };
  return (HealthStatus.valuesById[message.status] ?? `#${message.status}`) as HealthStatusName;
};
const identity = (bytes: Buffer): Buffer => bytes;

/** A decoded RateLimitResponse as protobufjs gives it (camelCase, enums as names, no defaults). */
export type DecodedResponse = Record<string, unknown>;

export interface CallOptions {
  /** Deadline from now, in ms (default 5000). */
  timeoutMs?: number;
  /** Request metadata (a `traceparent`, say). */
  metadata?: Record<string, string>;
}

export interface HealthWatch {
  /** Statuses received so far, in order. */
  readonly statuses: HealthStatusName[];
  /** Set when the stream ended with an error (cancel gives CANCELLED). */
  readonly error: grpc.ServiceError | undefined;
  readonly ended: boolean;
  cancel(): void;
}

export class RlsClient {
  readonly client: grpc.Client;

  constructor(target: string, tls?: TlsFiles, options: grpc.ClientOptions = {}) {
    this.client = new grpc.Client(target, channelCredentials(tls), options);
  }

  private unary<Req, Res>(path: string, serialize: (r: Req) => Buffer, deserialize: (b: Buffer) => Res, request: Req, options: CallOptions, onCall?: (call: grpc.ClientUnaryCall) => void): Promise<GrpcResult<Res>> {
    return new Promise((resolve) => {
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      const metadata = new grpc.Metadata();
      for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
      const call = this.client.makeUnaryRequest(path, serialize, deserialize, request, metadata, { deadline }, (error, response) => {
        if (error) resolve({ ok: false, code: error.code, details: error.details });
        else resolve({ ok: true, response: response as Res });
      });
      onCall?.(call);
    });
  }

  /** ShouldRateLimit with a request object in protobufjs form (camelCase, enums as names or numbers). */
  call(request: unknown, options: CallOptions = {}): Promise<GrpcResult<DecodedResponse>> {
    return this.unary(SHOULD_RATE_LIMIT_PATH, encodeRateLimitRequest, decodeRateLimitResponse, request, options);
  }

  /** ShouldRateLimit returning the call object too, so a test can cancel it. */
  startCall(request: unknown, options: CallOptions = {}): { call: grpc.ClientUnaryCall; result: Promise<GrpcResult<DecodedResponse>> } {
    let call: grpc.ClientUnaryCall | undefined;
    const result = this.unary(SHOULD_RATE_LIMIT_PATH, encodeRateLimitRequest, decodeRateLimitResponse, request, options, (c) => (call = c));
    return { call: call as unknown as grpc.ClientUnaryCall, result };
  }

  /** Sends `bytes` as the request message of `path` (default ShouldRateLimit) and returns the raw answer. */
  raw(bytes: Buffer, path = SHOULD_RATE_LIMIT_PATH, options: CallOptions = {}): Promise<GrpcResult<Buffer>> {
    return this.unary(path, identity, identity, bytes, options);
  }

  /** grpc.health.v1.Health/Check. */
  check(service: string, options: CallOptions = {}): Promise<GrpcResult<HealthStatusName>> {
    return this.unary(`/${HEALTH_SERVICE}/Check`, encodeHealth, decodeHealth, service, options);
  }

  /** grpc.health.v1.Health/Watch: collects every status streamed until cancelled. */
  watch(service: string): HealthWatch {
    const stream = this.client.makeServerStreamRequest(`/${HEALTH_SERVICE}/Watch`, encodeHealth, decodeHealth, service, new grpc.Metadata(), {});
    const state: { statuses: HealthStatusName[]; error: grpc.ServiceError | undefined; ended: boolean } = { statuses: [], error: undefined, ended: false };
    stream.on('data', (status: HealthStatusName) => state.statuses.push(status));
    stream.on('error', (error: grpc.ServiceError) => {
      state.error = error;
      state.ended = true;
    });
    stream.on('end', () => (state.ended = true));
    return {
      get statuses() {
        return state.statuses;
      },
      get error() {
        return state.error;
      },
      get ended() {
        return state.ended;
      },
      cancel: () => stream.cancel(),
    };
  }

  /** Resolves when the channel is READY (connects if idle); rejects after `timeoutMs`. */
  ready(timeoutMs = 5000): Promise<void> {
    return new Promise((resolve, reject) => this.client.waitForReady(Date.now() + timeoutMs, (error) => (error ? reject(error) : resolve())));
  }

  close(): void {
    this.client.close();
  }
}

/**
 * A decoded gRPC RateLimitResponse in the proto3 JSON shape /json answers with (upstream's /json
 * handler marshals with protojson):
 * Duration `{seconds}` becomes `"<n>s"`, everything else is already camelCase without defaults.
 */
export function toJsonShape(response: DecodedResponse): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(response)) {
    if (key === 'statuses' && Array.isArray(value)) {
      out[key] = value.map((status: Record<string, unknown>) => {
        const s: Record<string, unknown> = { ...status };
        const d = s['durationUntilReset'] as { seconds?: number; nanos?: number } | undefined;
        if (d !== undefined) {
          const nanos = d.nanos ?? 0;
          s['durationUntilReset'] = nanos === 0 ? `${d.seconds ?? 0}s` : `${(d.seconds ?? 0) + nanos / 1e9}s`;
        }
        return s;
      });
    } else if (Array.isArray(value) && value.length === 0) {
      // protojson omits empty repeated fields; protobufjs may give [] for them.
      continue;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** gRPC status numbers by name, for readable assertions. */
/** The limit of the first status of a ShouldRateLimit answer; undefined for an error or no limit. */
export function firstLimit(result: GrpcResult<DecodedResponse>): number | undefined {
  if (!result.ok) return undefined;
  return (toJsonShape(result.response)['statuses'] as Array<{ currentLimit?: { requestsPerUnit?: number } }>)[0]?.currentLimit?.requestsPerUnit;
}

export const Status = grpc.status;

/** A /json-style request descriptor (as the e2e tests write them). */
export interface JsonDescriptor {
  entries: Array<{ key: string; value: string }>;
  limit?: { requestsPerUnit: number; unit?: string | number };
  hitsAddend?: number;
}

/**
 * The protobufjs object for a /json-style request: the descriptor's `hitsAddend` is a
 * google.protobuf.UInt64Value on the wire, so it becomes `{ value }`.
 */
export function toGrpcRequest(request: { domain?: string; descriptors?: JsonDescriptor[]; hitsAddend?: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (request.domain !== undefined) out['domain'] = request.domain;
  if (request.hitsAddend !== undefined) out['hitsAddend'] = request.hitsAddend;
  out['descriptors'] = (request.descriptors ?? []).map((d) => {
    const descriptor: Record<string, unknown> = { entries: d.entries };
    if (d.limit !== undefined) descriptor['limit'] = d.limit;
    if (d.hitsAddend !== undefined) descriptor['hitsAddend'] = { value: d.hitsAddend };
    return descriptor;
  });
  return out;
}
