/**
 * The gRPC port of the whole process under abuse: garbage bytes, an HTTP/1.1 request, clients
 * that go away in the middle of calls, 1,000 concurrent streams on one and on several
 * connections, and GRPC_MAX_CONNECTION_AGE. After each, the process is still up and a normal
 * call gets the right answer.
 */
import http2 from 'node:http2';
import net from 'node:net';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import t, { type Test } from 'tap';
import { SHOULD_RATE_LIMIT_PATH, encodeRateLimitRequest } from '../../src/ratelimit/grpc/index.js';
import { RlsClient, Status, toJsonShape } from '../support/grpc-client.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

async function basicRoot(t: Test): Promise<string> {
  return (await runtimeRoot(t, { 'basic.yaml': fixture('basic.yaml') })).root;
}

let probe = 0;
/** A fresh client, a fresh key: the process is up and answers exactly. */
async function expectAlive(t: Test, proc: ServiceProcess, what: string): Promise<void> {
  t.ok(proc.running, `${what}: the process is still running`);
  const client = new RlsClient(proc.grpcAddress);
  try {
    const r = await client.call({ domain: 'basic', descriptors: [D('one_per_minute', `probe-${++probe}`)] });
    const shape = r.ok ? toJsonShape(r.response) : { error: `${Status[r.code]}: ${r.details}` };
    const statuses = (shape['statuses'] ?? []) as Array<Record<string, unknown>>;
    const reset = String(statuses[0]?.['durationUntilReset'] ?? '');
    const seconds = parseInt(reset, 10);
    t.same(
      shape,
      { overallCode: 'OK', statuses: [{ code: 'OK', currentLimit: { requestsPerUnit: 1, unit: 'MINUTE' }, durationUntilReset: reset }] },
      `${what}: a normal call afterwards is answered (1/MINUTE, remaining 0)`,
    );
    t.ok(/^\d+s$/.test(reset) && seconds >= 1 && seconds <= 60, `${what}: durationUntilReset ${reset} within the minute`);
  } finally {
    client.close();
  }
}

interface Frame {
  type: number;
  flags: number;
  stream: number;
  payload: Buffer;
}

function parseFrames(bytes: Buffer): Frame[] {
  const frames: Frame[] = [];
  let pos = 0;
  while (pos + 9 <= bytes.length) {
    const length = bytes.readUIntBE(pos, 3);
    frames.push({ type: bytes[pos + 3] as number, flags: bytes[pos + 4] as number, stream: bytes.readUInt32BE(pos + 5) & 0x7fffffff, payload: bytes.subarray(pos + 9, pos + 9 + length) });
    pos += 9 + length;
  }
  return frames;
}

/** Writes `payload` on a raw TCP connection and collects what comes back until the server closes it. */
function rawExchange(port: number, payload: Buffer, timeoutMs = 3000): Promise<{ bytes: Buffer; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(payload));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closedByServer: false });
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(chunks), closedByServer: true });
    });
  });
}

const SETTINGS = 0x4;
const GOAWAY = 0x7;

t.test('garbage, HTTP/1.1 and a broken HTTP/2 preface on the gRPC port', async (t) => {
  const proc = await startProcess(t, { RUNTIME_ROOT: await basicRoot(t) });
  const port = Number(proc.grpcTarget);
  const cases: Array<[string, Buffer]> = [
    ['4 KiB of garbage', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) & 0xff))],
    ['an HTTP/1.1 request', Buffer.from('POST /envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit HTTP/1.1\r\nHost: x\r\nContent-Type: application/grpc\r\nContent-Length: 5\r\n\r\n\0\0\0\0\0')],
    ['an HTTP/1.1 GET', Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')],
    ['the HTTP/2 preface then a frame of an unknown type with a bad length', Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 4, 0xff, 0, 0, 0, 0, 0]), Buffer.from('garbage!')])],
    ['a single zero byte', Buffer.from([0])],
  ];
  for (const [what, payload] of cases) {
    const { bytes, closedByServer } = await rawExchange(port, payload);
    t.equal(closedByServer, true, `${what}: the server closes the connection`);
    const frames = parseFrames(bytes);
    t.equal(frames[0]?.type, SETTINGS, `${what}: the server's SETTINGS frame comes first`);
    const goaway = frames.find((f) => f.type === GOAWAY);
    t.equal(goaway?.stream, 0, `${what}: then a GOAWAY frame on stream 0`);
    t.not(goaway?.payload.readUInt32BE(4) ?? 0, 0, `${what}: with an error code (${goaway?.payload.readUInt32BE(4)})`);
    await expectAlive(t, proc, what);
  }

  // A connection error after a valid preface: nghttp2 answers GOAWAY PROTOCOL_ERROR. (Node's
  // http2 server then leaves the TCP connection open until the client closes it, although RFC
  // 9113 §5.4.1 says the endpoint MUST close it; observed, not asserted.)
  const dataOnZero = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]), Buffer.from([0, 0, 3, 0, 0, 0, 0, 0, 0, 1, 2, 3])]);
  const protocolError = await rawExchange(port, dataOnZero, 500);
  const goaway = parseFrames(protocolError.bytes).find((f) => f.type === GOAWAY);
  t.equal(goaway?.payload.readUInt32BE(4), http2.constants.NGHTTP2_PROTOCOL_ERROR, 'DATA on stream 0: GOAWAY PROTOCOL_ERROR');
  t.equal(goaway?.payload.subarray(8).toString(), 'DATA: stream_id == 0', 'with the reason as debug data');
  t.comment(`DATA on stream 0: the server ${protocolError.closedByServer ? 'closed' : 'did not close'} the connection within 500 ms`);
  await expectAlive(t, proc, 'a protocol error after the preface');

  // A burst of the same in parallel.
  await Promise.all([...cases, ['', dataOnZero] as const].flatMap(([, payload]) => [1, 2, 3, 4].map(() => rawExchange(port, payload, 1000))));
  await expectAlive(t, proc, '24 bad connections at once');
});

t.test('clients that go away in the middle of calls', async (t) => {
  const proc = await startProcess(t, { RUNTIME_ROOT: await basicRoot(t) });
  const port = Number(proc.grpcTarget);
  const message = encodeRateLimitRequest({ domain: 'basic', descriptors: [D('key1', 'raw')] });
  /** gRPC length-prefixed message: flag 0, big-endian length, bytes. */
  const frame = (bytes: Buffer) => {
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(bytes.length, 1);
    return Buffer.concat([prefix, bytes]);
  };
  const headers = { ':method': 'POST', ':path': SHOULD_RATE_LIMIT_PATH, 'content-type': 'application/grpc', te: 'trailers' };

  // 1. Half a message on 100 streams, then the connection is destroyed.
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  await new Promise<void>((resolve) => session.once('connect', () => resolve()));
  const halfStreams = Array.from({ length: 100 }, () => {
    const stream = session.request(headers, { endStream: false });
    stream.on('error', () => undefined);
    stream.write(frame(message).subarray(0, 8));
    return stream;
  });
  await new Promise((resolve) => setImmediate(resolve));
  session.destroy();
  t.equal(halfStreams.length, 100);
  await expectAlive(t, proc, 'a connection destroyed with 100 half-sent messages');

  // 2. Whole messages whose streams are reset right after sending (the answer has nowhere to go).
  const session2 = http2.connect(`http://127.0.0.1:${port}`);
  session2.on('error', () => undefined);
  await new Promise<void>((resolve) => session2.once('connect', () => resolve()));
  const resets = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const stream = session2.request(headers, { endStream: false });
      stream.on('error', () => undefined);
      stream.end(frame(message));
      if (i % 2 === 0) stream.close(http2.constants.NGHTTP2_CANCEL);
      else setImmediate(() => stream.close(http2.constants.NGHTTP2_CANCEL));
      return new Promise<number>((resolve) => stream.on('close', () => resolve(stream.rstCode ?? -1)));
    }),
  );
  t.equal(resets.length, 200, 'all 200 reset streams closed');
  session2.close();
  await expectAlive(t, proc, '200 streams reset by the client');

  // 3. grpc-js calls cancelled as soon as they start, and a client closed with calls in flight.
  const client = new RlsClient(proc.grpcAddress);
  await client.ready();
  const cancelled = Array.from({ length: 50 }, (_, i) => {
    const { call, result } = client.startCall({ domain: 'basic', descriptors: [D('key1', `cancel-${i}`)] });
    call.cancel();
    return result;
  });
  const outcomes = await Promise.all(cancelled);
  t.same(new Set(outcomes.map((r) => (r.ok ? 'ok' : r.code))), new Set([Status.CANCELLED]), 'cancelled calls end CANCELLED on the client');
  const inFlight = Array.from({ length: 200 }, (_, i) => client.call({ domain: 'basic', descriptors: [D('key1', `closing-${i}`)] }));
  client.close();
  const closedOutcomes = await Promise.all(inFlight);
  t.equal(closedOutcomes.length, 200, `client closed with 200 calls in flight (${closedOutcomes.filter((r) => r.ok).length} completed)`);
  await expectAlive(t, proc, 'cancelled calls and a client closed mid-call');

  // 4. A socket closed in the middle of the HTTP/2 preface and in the middle of a frame.
  await rawExchange(port, Buffer.from('PRI * HTTP/2.0\r\n'), 200);
  await rawExchange(port, Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 6, 4, 0, 0, 0])]), 200);
  await expectAlive(t, proc, 'sockets closed mid-preface and mid-frame');
});

async function burst(clients: RlsClient[], total: number, prefix: string): Promise<Array<string>> {
  return Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const client = clients[i % clients.length] as RlsClient;
      const r = await client.call({ domain: 'basic', descriptors: [D('key1', `${prefix}-${i}`)] }, { timeoutMs: 15_000 });
      if (!r.ok) return `${Status[r.code]}: ${r.details}`;
      const s = toJsonShape(r.response);
      return JSON.stringify([s['overallCode'], s['statuses']]);
    }),
  );
}

t.test('1,000 concurrent streams on one connection and over several connections', async (t) => {
  const proc = await startProcess(t, { RUNTIME_ROOT: await basicRoot(t) });
  const expected = JSON.stringify(['OK', [{ code: 'OK', currentLimit: { requestsPerUnit: 50, unit: 'SECOND' }, limitRemaining: 49, durationUntilReset: '1s' }]]);

  const one = new RlsClient(proc.grpcAddress);
  t.teardown(() => one.close());
  await one.ready();
  const started = Date.now();
  const single = await burst([one], 1000, 'one');
  t.comment(`1,000 concurrent calls on one connection in ${Date.now() - started} ms`);
  t.equal(single.filter((r) => r === expected).length, 1000, `all 1,000 answered OK, 49 remaining (first other answer: ${single.find((r) => r !== expected) ?? 'none'})`);

  // A local subchannel pool per client: each client gets its own TCP connection.
  const several = Array.from({ length: 8 }, () => new RlsClient(proc.grpcAddress, undefined, { 'grpc.use_local_subchannel_pool': 1 }));
  t.teardown(() => several.forEach((c) => c.close()));
  await Promise.all(several.map((c) => c.ready()));
  const started2 = Date.now();
  const spread = await burst(several, 1000, 'several');
  t.comment(`1,000 concurrent calls over 8 connections in ${Date.now() - started2} ms`);
  t.equal(spread.filter((r) => r === expected).length, 1000, `all 1,000 answered OK over 8 connections (first other answer: ${spread.find((r) => r !== expected) ?? 'none'})`);

  t.equal(await proc.stat('ratelimit.service.rate_limit.basic.key1.total_hits'), 2000);
  t.equal(await proc.stat('ratelimit_server.ShouldRateLimit.total_requests'), 2000);
  await expectAlive(t, proc, 'after 2,000 concurrent calls');
});

t.test('GRPC_MAX_CONNECTION_AGE=1s, GRACE=1s: connections get GOAWAY, calls keep succeeding', async (t) => {
  const proc = await startProcess(t, {
    RUNTIME_ROOT: await basicRoot(t),
    GRPC_MAX_CONNECTION_AGE: '1s',
    GRPC_MAX_CONNECTION_AGE_GRACE: '1s',
  });
  const port = Number(proc.grpcTarget);

  // A raw HTTP/2 connection sees the GOAWAY itself.
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  const connectedAt = await new Promise<number>((resolve) => session.once('connect', () => resolve(Date.now())));
  const goaway = new Promise<{ code: number; at: number }>((resolve) => session.once('goaway', (code) => resolve({ code, at: Date.now() })));
  const closed = new Promise<number>((resolve) => session.once('close', () => resolve(Date.now())));

  // A Watch stream on its own connection outlives the GOAWAY only by the grace period.
  const watcher = new RlsClient(proc.grpcAddress, undefined, { 'grpc.use_local_subchannel_pool': 1 });
  t.teardown(() => watcher.close());
  const watchStarted = Date.now();
  const watch = watcher.watch('ratelimit');

  // Meanwhile a grpc-js client calls without pause and follows its channel's state.
  const client = new RlsClient(proc.grpcAddress);
  t.teardown(() => client.close());
  const channel = client.client.getChannel();
  const states: string[] = [];
  const follow = (state: grpc.connectivityState) => {
    states.push(grpc.connectivityState[state]);
    if (state !== grpc.connectivityState.SHUTDOWN) channel.watchConnectivityState(state, Infinity, () => follow(channel.getConnectivityState(false)));
  };
  follow(channel.getConnectivityState(true));
  let calls = 0;
  const failures: string[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const r = await client.call({ domain: 'basic', descriptors: [D('key1', `age-${calls}`)] });
      calls++;
      if (!r.ok) failures.push(`${Status[r.code]}: ${r.details}`);
    }
  })();

  const g = await goaway;
  const closedAt = await closed;
  t.equal(g.code, http2.constants.NGHTTP2_NO_ERROR, 'GOAWAY with NO_ERROR');
  const age = g.at - connectedAt;
  t.ok(age >= 850 && age <= 1600, `GOAWAY after ${age} ms (1 s ±10 % jitter)`);
  t.ok(closedAt - g.at <= 1500, `the idle connection closed ${closedAt - g.at} ms after GOAWAY (grace 1 s)`);

  await waitFor('the Watch stream to be ended by the server', () => watch.ended, 5000);
  const watchLived = Date.now() - watchStarted;
  t.same(watch.statuses, ['SERVING'], 'the Watch stream got its first status');
  t.equal(watch.error?.code, Status.UNAVAILABLE, `the Watch stream ends UNAVAILABLE (${watch.error?.details})`);
  t.ok(watchLived >= 1700 && watchLived <= 3000, `the Watch stream ended after ${watchLived} ms (age 1 s ±10 % + grace 1 s)`);

  await waitFor('two reconnections of the grpc-js channel', () => states.filter((s) => s === 'READY').length >= 3, 6000);
  stop = true;
  await loop;
  t.comment(`channel states: ${states.join(' -> ')}; ${calls} calls`);
  t.same(failures, [], `none of ${calls} calls failed across connection ages`);
  t.ok(calls > 100, 'calls kept flowing');
  await expectAlive(t, proc, 'after connection ages');
});
