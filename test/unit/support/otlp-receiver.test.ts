import { gzipSync } from 'node:zlib';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import t from 'tap';
import { startOtlpReceiver, type OtlpProtocol, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';

const SERVICE_NAME = 'otlp-receiver-test';

function exporterFor(receiver: OtlpReceiver): SpanExporter {
  return receiver.protocol === 'http' ? new ProtoTraceExporter({ url: `${receiver.endpoint}/v1/traces` }) : new GrpcTraceExporter({ url: receiver.endpoint });
}

function byName(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const span = spans.find((s) => s.name === name);
  if (span === undefined) throw new Error(`no span ${name} in ${JSON.stringify(spans.map((s) => s.name))}`);
  return span;
}

for (const protocol of ['http', 'grpc'] as OtlpProtocol[]) {
  t.test(`${protocol}: a parent and a child span from the real exporter`, async (t) => {
    const receiver = await startOtlpReceiver(t, protocol);
    t.equal(receiver.protocol, protocol);
    t.equal(receiver.endpoint, `http://127.0.0.1:${receiver.port}`);
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': SERVICE_NAME, 'service.instance.id': 'i-1' }),
      spanProcessors: [new SimpleSpanProcessor(exporterFor(receiver))],
    });
    t.teardown(() => provider.shutdown());
    const tracer = provider.getTracer('receiver-test-scope');

    const parent = tracer.startSpan('parent', { kind: SpanKind.SERVER, attributes: { 'http.route': '/json', 'http.status_code': 200, retried: false } });
    const child = tracer.startSpan('child', { kind: SpanKind.CLIENT, attributes: { 'db.system': 'redis', hits: 3, cached: true, tags: ['a', 'b'] } }, trace.setSpan(context.active(), parent));
    child.end();
    parent.end();
    await provider.forceFlush();

    const spans = await receiver.waitFor((received) => received.length >= 2);
    t.equal(spans.length, 2);
    t.equal(receiver.requests, 2, 'one export per span with SimpleSpanProcessor');
    const [first, second] = spans;
    t.equal(first?.name, 'child', 'arrival order');
    t.equal(second?.name, 'parent');

    const root = byName(spans, 'parent');
    const leaf = byName(spans, 'child');
    t.equal(root.traceId, parent.spanContext().traceId);
    t.equal(root.spanId, parent.spanContext().spanId);
    t.match(root.traceId, /^[0-9a-f]{32}$/);
    t.match(root.spanId, /^[0-9a-f]{16}$/);
    t.equal(root.parentSpanId, '');
    t.equal(leaf.traceId, root.traceId);
    t.equal(leaf.parentSpanId, root.spanId);
    t.equal(leaf.spanId, child.spanContext().spanId);
    t.equal(root.kind, 2, 'SERVER');
    t.equal(leaf.kind, 3, 'CLIENT');
    t.same(root.attributes, { 'http.route': '/json', 'http.status_code': 200, retried: false });
    t.same(leaf.attributes, { 'db.system': 'redis', hits: 3, cached: true, tags: ['a', 'b'] });
    t.same(root.resource, { 'service.name': SERVICE_NAME, 'service.instance.id': 'i-1' });
    t.same(leaf.resource, root.resource);
    t.equal(root.scope, 'receiver-test-scope');
    t.ok(root.startTimeUnixNano > 1_600_000_000_000_000_000n, 'start time in nanoseconds since the epoch');
    t.ok(root.endTimeUnixNano >= root.startTimeUnixNano);
    t.same(root.status, { code: 0, message: '' });
    t.equal(root.traceState, '');
  });
}

/** Exporters read their environment when constructed; restore it right after. */
function exporterFromEnv(protocol: OtlpProtocol, env: Record<string, string>): SpanExporter {
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    return protocol === 'http' ? new ProtoTraceExporter() : new GrpcTraceExporter();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

for (const protocol of ['http', 'grpc'] as OtlpProtocol[]) {
  t.test(`${protocol}: OTEL_EXPORTER_OTLP_ENDPOINT is the endpoint, gzip compression decodes`, async (t) => {
    const receiver = await startOtlpReceiver(t, protocol);
    const exporter = exporterFromEnv(protocol, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip' });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    t.teardown(() => provider.shutdown());
    provider.getTracer('env-scope').startSpan('from-env', { attributes: { n: 1 } }).end();
    const [span] = await receiver.waitFor((spans) => spans.length === 1);
    t.equal(span?.name, 'from-env');
    t.equal(span?.kind, 1, 'INTERNAL');
    t.same(span?.attributes, { n: 1 });
  });
}

/** An OTLP/JSON request as the spec writes it: hex ids, 64-bit integers as strings. */
const JSON_REQUEST = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'by-hand' } }] },
      scopeSpans: [
        {
          scope: { name: 'manual' },
          spans: [
            {
              traceId: '5B8EFFF798038103D269B633813FC60C',
              spanId: 'EEE19B7EC3C1B174',
              parentSpanId: 'EEE19B7EC3C1B173',
              traceState: 'vendor=1',
              name: 'hand-made',
              kind: 2,
              startTimeUnixNano: '1544712660000000000',
              endTimeUnixNano: 1544712661000000000,
              attributes: [
                { key: 'count', value: { intValue: '42' } },
                { key: 'ratio', value: { doubleValue: 0.5 } },
                { key: 'ok', value: { boolValue: true } },
                { key: 'list', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 7 }] } } },
              ],
              status: { code: 2, message: 'boom' },
            },
          ],
        },
      ],
    },
  ],
};

t.test('http: a JSON request by hand, plain and gzipped', async (t) => {
  const receiver = await startOtlpReceiver(t, 'http');
  const url = `${receiver.endpoint}/v1/traces`;
  const plain = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(JSON_REQUEST) });
  t.equal(plain.status, 200);
  t.equal(plain.headers.get('content-type'), 'application/json');
  t.same(await plain.json(), {});
  t.same(receiver.spans, [
    {
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      parentSpanId: 'eee19b7ec3c1b173',
      name: 'hand-made',
      kind: 2,
      attributes: { count: 42, ratio: 0.5, ok: true, list: ['x', 7] },
      resource: { 'service.name': 'by-hand' },
      scope: 'manual',
      startTimeUnixNano: 1544712660000000000n,
      endTimeUnixNano: 1544712661000000000n,
      status: { code: 2, message: 'boom' },
      traceState: 'vendor=1',
    },
  ]);

  const gzipped = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(JSON_REQUEST)) });
  t.equal(gzipped.status, 200);
  await gzipped.arrayBuffer();
  const empty = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(empty.status, 200);
  await empty.arrayBuffer();
  t.equal(receiver.spans.length, 2);
  t.equal(receiver.requests, 3, 'the empty request counts');
});

t.test('http: unknown content type, wrong path, bad body', async (t) => {
  const receiver = await startOtlpReceiver(t, 'http');
  const post = (path: string, contentType: string, body: string): Promise<Response> => fetch(`${receiver.endpoint}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const unknownType = await post('/v1/traces', 'text/plain', 'hello');
  t.equal(unknownType.status, 415);
  t.match(await unknownType.text(), /text\/plain/);
  const wrongPath = await post('/v1/metrics', 'application/json', '{}');
  t.equal(wrongPath.status, 404);
  await wrongPath.arrayBuffer();
  const badJson = await post('/v1/traces', 'application/json', '{not json');
  t.equal(badJson.status, 400);
  await badJson.arrayBuffer();
  t.equal(receiver.requests, 0);
});

t.test('waitFor: names what arrived when it times out, fails when closed', async (t) => {
  const receiver = await startOtlpReceiver(t, 'http');
  const response = await fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(JSON_REQUEST) });
  await response.arrayBuffer();
  await t.rejects(receiver.waitFor((spans) => spans.length > 1, 50), /no match within 50 ms; received 1 span\(s\) in 1 request\(s\): \["hand-made"\]/);
  const pending = receiver.waitFor(() => false);
  await receiver.close();
  await t.rejects(pending, /receiver closed/);
});
