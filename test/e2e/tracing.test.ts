/**
 * Tracing: the real service exports spans to a real OTLP receiver over HTTP and over gRPC. An
 * incoming W3C `traceparent` (HTTP header or gRPC metadata) or Zipkin B3 headers continue the
 * caller's trace; the decision span and the store's span (real Redis, real memcached) are its
 * children; sampling rate 0 sends nothing of a new trace; a receiver that is down changes no
 * decision.
 */
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import t from 'tap';
import { RlsClient, toGrpcRequest } from '../support/grpc-client.js';
import { startOtlpReceiver, type OtlpProtocol, type ReceivedSpan } from '../support/otlp-receiver.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { startMemcached, startRedis } from '../support/store-servers.js';
import type { Teardown } from '../support/teardown.js';
import { oneWindowAhead } from '../support/wall-clock.js';
import { portForLater } from '../support/port-for-later.js';

function ids(): { traceId: string; spanId: string } {
  return { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') };
}

async function tracedService(t: Teardown, receiver: { endpoint: string; protocol: OtlpProtocol }, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') });
  return startProcess(t, {
    RUNTIME_ROOT: root,
    TRACING_ENABLED: 'true',
    TRACING_EXPORTER_PROTOCOL: receiver.protocol,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // The batch processor's default delay is 5 s; the tests should not wait that long.
    OTEL_BSP_SCHEDULE_DELAY: '50',
    TRACING_SERVICE_NAME: 'rl-under-test',
    TRACING_SERVICE_NAMESPACE: 'tests',
    ...env,
  });
}

/** ShouldRateLimit with `metadata`; the status code. */
async function grpcCall(target: string, metadata: Record<string, string>): Promise<number> {
  const client = new RlsClient(target);
  try {
    const result = await client.call(toGrpcRequest({ domain: 'basic', descriptors: [D('key1', 'g')] }), { metadata });
    return result.ok ? grpc.status.OK : result.code;
  } finally {
    client.close();
  }
}

function byName(spans: readonly ReceivedSpan[], traceId: string, name: string): ReceivedSpan | undefined {
  return spans.find((s) => s.traceId === traceId && s.name === name);
}

for (const protocol of ['http', 'grpc'] as const) {
  t.test(`OTLP over ${protocol}: traceparent continues the trace through the decision`, async (t) => {
    const receiver = await startOtlpReceiver(t, protocol);
    const proc = await tracedService(t, receiver, { HTTP_WORKERS: '2' });

    const http = ids();
    const r = await proc.post({ domain: 'basic', descriptors: [D('key1', 'h')] }, { headers: { traceparent: `00-${http.traceId}-${http.spanId}-01` } });
    t.equal(r.status, 200);
    const spans = await receiver.waitFor((s) => byName(s, http.traceId, 'NewJsonHandler Remaining Execution') !== undefined && byName(s, http.traceId, 'POST /json') !== undefined);
    const server = byName(spans, http.traceId, 'POST /json');
    const decision = byName(spans, http.traceId, 'ShouldRateLimit Execution');
    const remaining = byName(spans, http.traceId, 'NewJsonHandler Remaining Execution');
    t.equal(server?.parentSpanId, http.spanId, 'the server span`s parent is the caller`s span');
    t.equal(server?.kind, 2, 'SERVER');
    t.match(server?.attributes, { 'http.request.method': 'POST', 'url.path': '/json', 'http.response.status_code': 200 });
    t.equal(decision?.parentSpanId, server?.spanId, 'the decision is a child of the server span');
    t.same(decision?.attributes, { domain: 'basic', 'request string': 'domain:"basic" descriptors:{entries:{key:"key1" value:"h"}}' });
    t.equal(remaining?.parentSpanId, server?.spanId);
    t.match(String(remaining?.attributes['response']), /"overallCode":"OK"/);
    t.match(server?.resource, { 'service.name': 'rl-under-test', 'service.namespace': 'tests' });
    t.match(String(server?.resource['service.instance.id']), /^[0-9a-f-]{36}$/, 'a random v4 UUID by default');

    const call = ids();
    t.equal(await grpcCall(proc.grpcAddress, { traceparent: `00-${call.traceId}-${call.spanId}-01` }), grpc.status.OK);
    const grpcSpans = await receiver.waitFor((s) => byName(s, call.traceId, 'ShouldRateLimit Execution') !== undefined && byName(s, call.traceId, 'envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit') !== undefined);
    const grpcServer = byName(grpcSpans, call.traceId, 'envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit');
    t.equal(grpcServer?.parentSpanId, call.spanId, 'metadata traceparent is the parent');
    t.match(grpcServer?.attributes, { 'rpc.system': 'grpc', 'rpc.service': 'envoy.service.ratelimit.v3.RateLimitService', 'rpc.method': 'ShouldRateLimit', 'rpc.grpc.status_code': 0 });
    t.equal(byName(grpcSpans, call.traceId, 'ShouldRateLimit Execution')?.parentSpanId, grpcServer?.spanId);
    t.equal(
      grpcServer?.resource['service.instance.id'],
      server?.resource['service.instance.id'],
      'the HTTP thread and the main thread report one service instance',
    );
  });
}

t.test('Zipkin B3 headers continue the trace, single and multi-header', async (t) => {
  const receiver = await startOtlpReceiver(t, 'http');
  const proc = await tracedService(t, receiver);
  const multi = ids();
  await proc.post({ domain: 'basic', descriptors: [D('key1', 'b')] }, { headers: { 'x-b3-traceid': multi.traceId, 'x-b3-spanid': multi.spanId, 'x-b3-sampled': '1' } });
  const single = ids();
  t.equal(await grpcCall(proc.grpcAddress, { b3: `${single.traceId}-${single.spanId}-1` }), grpc.status.OK);
  const spans = await receiver.waitFor((s) => byName(s, multi.traceId, 'POST /json') !== undefined && byName(s, single.traceId, 'ShouldRateLimit Execution') !== undefined);
  t.equal(byName(spans, multi.traceId, 'POST /json')?.parentSpanId, multi.spanId, 'X-B3-* headers on HTTP');
  t.equal(byName(spans, single.traceId, 'envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit')?.parentSpanId, single.spanId, 'b3 metadata on gRPC');
});

t.test('sampling rate 0: a new trace sends nothing; a sampled parent is still followed', async (t) => {
  const receiver = await startOtlpReceiver(t, 'http');
  const proc = await tracedService(t, receiver, { TRACING_SAMPLING_RATE: '0' });
  for (let i = 0; i < 20; i++) t.equal((await proc.post({ domain: 'basic', descriptors: [D('key1', `z${i}`)] })).status, 200);
  const unsampled = ids();
  await proc.post({ domain: 'basic', descriptors: [D('key1', 'u')] }, { headers: { traceparent: `00-${unsampled.traceId}-${unsampled.spanId}-00` } });
  const parent = ids();
  await proc.post({ domain: 'basic', descriptors: [D('key1', 'p')] }, { headers: { traceparent: `00-${parent.traceId}-${parent.spanId}-01` } });
  const spans = await receiver.waitFor((s) => byName(s, parent.traceId, 'ShouldRateLimit Execution') !== undefined);
  t.ok(spans.every((s) => s.traceId === parent.traceId), `only the sampled caller's trace was exported (${spans.length} spans)`);
});

t.test('the store call is a child span of the decision: Redis and memcached', async (t) => {
  const receiver = await startOtlpReceiver(t, 'grpc');
  const redis = await startRedis(t);
  const withRedis = await tracedService(t, receiver, { KVSTORE_URL: redis.url });
  const r = ids();
  await withRedis.post({ domain: 'basic', descriptors: [D('key1', 'r'), D('one_per_minute', 'r')] }, { headers: { traceparent: `00-${r.traceId}-${r.spanId}-01` } });
  let spans = await receiver.waitFor((s) => byName(s, r.traceId, 'Redis Pipeline Execution') !== undefined && byName(s, r.traceId, 'ShouldRateLimit Execution') !== undefined);
  const pipeline = byName(spans, r.traceId, 'Redis Pipeline Execution');
  t.equal(pipeline?.parentSpanId, byName(spans, r.traceId, 'ShouldRateLimit Execution')?.spanId, 'Redis span under the decision');
  t.same(pipeline?.attributes, { 'pipeline length': 4, 'perSecondPipeline length': 0 }, 'INCRBY and EXPIRE for each of two keys');

  const memcached = await startMemcached(t);
  const withMemcached = await tracedService(t, receiver, { BACKEND_TYPE: 'objcache', OBJCACHE_HOST_PORT: memcached.url });
  const m = ids();
  await withMemcached.post({ domain: 'basic', descriptors: [D('key1', 'm')] }, { headers: { traceparent: `00-${m.traceId}-${m.spanId}-01` } });
  spans = await receiver.waitFor((s) => byName(s, m.traceId, 'Memcached Fetch Execution') !== undefined && byName(s, m.traceId, 'ShouldRateLimit Execution') !== undefined);
  t.equal(byName(spans, m.traceId, 'Memcached Fetch Execution')?.parentSpanId, byName(spans, m.traceId, 'ShouldRateLimit Execution')?.spanId);
  t.same(byName(spans, m.traceId, 'Memcached Fetch Execution')?.attributes, { 'keysToGet length': 1 });
});

t.test('an OTLP endpoint that is down changes no decision, and does not hold a stop', async (t) => {
  const port = await portForLater();
  for (const protocol of ['http', 'grpc'] as const) {
    // The exporter would retry for 30 s, and the stop may take as long: it must not.
    const proc = await tracedService(t, { protocol, endpoint: `http://127.0.0.1:${port}` }, { HTTP_WORKERS: '2', OTEL_EXPORTER_OTLP_TIMEOUT: '30000', DRAIN_TIMEOUT: '30s' });
    // A minute's window turning between the first request and the last would answer 200 again.
    await oneWindowAhead(60_000, 10_000);
    for (let i = 0; i < 30; i++) {
      const r = await proc.post({ domain: 'basic', descriptors: [D('one_per_minute', `${protocol}`)] });
      t.equal(r.status, i === 0 ? 200 : 429, `${protocol}: decision ${i}`);
    }
    t.equal(await grpcCall(proc.grpcAddress, {}), grpc.status.OK, `${protocol}: gRPC decides`);
    t.equal(proc.exitReason, undefined, `${protocol}: the process lives on`);
    const stopping = performance.now();
    await proc.stop(30_000);
    const stopMs = performance.now() - stopping;
    t.same([proc.child.exitCode, proc.child.signalCode], [0, null], `${protocol}: a clean exit`);
    t.ok(stopMs < 10_000, `${protocol}: gone ${Math.round(stopMs)} ms after SIGTERM (the spans get 1 s)`);
  }
});

