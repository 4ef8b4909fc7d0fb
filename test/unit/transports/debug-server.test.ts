import http from 'node:http';
import net from 'node:net';
import t from 'tap';

import { startDebugServer, type DebugServer } from '../../../src/transports/debug/index.js';

interface LogEntry {
  msg: string;
  fields: Record<string, unknown> | undefined;
}

const TEXT = 'text/plain; charset=utf-8';

const STATS: Array<[string, number]> = [
  ['ratelimit.service.rate_limit.basic.key1.total_hits', 7],
  ['ratelimit.service.config_load_success', 2],
  ['ratelimit_server.ShouldRateLimit.total_requests', 9],
  ['ratelimit.service.config_load_error', 0],
  ['a.first', 1.5],
];

const RLCONFIG =
  'basic.key1: unit=SECOND requests_per_unit=50, shadow_mode: false, quota_mode: false\n' +
  'basic.key1_value1.subkey1: unit=UNKNOWN requests_per_unit=0, shadow_mode: true, ' +
  'quota_mode: false\n';

let rlconfigText = RLCONFIG;
let rlconfigThrows = false;
const logs: LogEntry[] = [];

const server: DebugServer = await startDebugServer({
  host: '127.0.0.1',
  port: 0,
  stats: () => STATS.map(([n, v]) => [n, v] as [string, number]),
  metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' }),
  rlconfig: () => {
    if (rlconfigThrows) throw new Error('config exploded');
    return rlconfigText;
  },
  logger: { info: (msg, fields) => logs.push({ msg, fields }) },
});
t.teardown(() => server.close());

const base = `http://127.0.0.1:${server.port}`;

async function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(base + path, { redirect: 'manual', ...init });
}

t.test('binds a real port when asked for port 0', async (t) => {
  t.type(server.port, 'number');
  t.ok(server.port > 0 && server.port < 65536, `port ${server.port} is a real port`);
  t.ok(
    logs.some((l) => l.msg === 'debug server listening' && l.fields?.['port'] === server.port),
    'logs the bound port',
  );
});

t.test('/metrics answers the page with its content type', async (t) => {
  const res = await get('/metrics');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  t.equal(await res.text(), 'up 1\n');
});

t.test('/ lists every endpoint with a description, sorted', async (t) => {
  const res = await get('/');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), TEXT);
  t.equal(
    await res.text(),
    '/debug/pprof/: list the profiling endpoints and how to open their output\n' +
      '/debug/pprof/heap: V8 heap snapshot as .heapsnapshot ' +
      '(pauses the process while it is taken)\n' +
      '/debug/pprof/profile: CPU profile as .cpuprofile; ?seconds=N (default 30, max 300)\n' +
      '/debug/pprof/trace: Node trace events as Chrome trace JSON; ' +
      '?seconds=N (default 1, max 60)&categories=a,b\n' +
      "/metrics: the statistics as Prometheus metrics (upstream's default mapping, or PROMETHEUS_MAPPER_YAML)\n" +
      '/rlconfig: print out the currently loaded configuration for debugging\n' +
      '/stats: print out stats (the service statistics and process.* figures)\n',
  );
});

t.test('/rlconfig passes the callback text through', async (t) => {
  const res = await get('/rlconfig');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), TEXT);
  t.equal(await res.text(), RLCONFIG);

  rlconfigText = '';
  const empty = await get('/rlconfig');
  t.equal(empty.status, 200);
  t.equal(empty.headers.get('content-type'), TEXT);
  t.equal(empty.headers.get('content-length'), '0');
  t.equal(await empty.text(), '');
  rlconfigText = RLCONFIG;
});

t.test('/rlconfig answers 500 and logs when the callback throws', async (t) => {
  rlconfigThrows = true;
  const before = logs.length;
  const res = await get('/rlconfig');
  rlconfigThrows = false;
  t.equal(res.status, 500);
  t.equal(res.headers.get('content-type'), TEXT);
  t.equal(await res.text(), 'internal error: config exploded\n');
  const entry = logs.slice(before).find((l) => l.msg === 'debug server: handler failed');
  t.same(entry?.fields, { path: '/rlconfig', error: 'config exploded' });
  t.equal((await get('/rlconfig')).status, 200, 'still serving afterwards');
});

t.test('/stats prints sorted name: value lines with process figures', async (t) => {
  const res = await get('/stats');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), TEXT);
  const body = await res.text();
  t.ok(body.endsWith('\n'), 'ends with a newline');
  const lines = body.slice(0, -1).split('\n');
  const names = lines.map((l) => l.slice(0, l.indexOf(': ')));
  t.same(names, [...names].sort(), 'sorted by name');
  t.same(names, [
    'a.first',
    'process.cmdline',
    'process.cpu.systemMicros',
    'process.cpu.userMicros',
    'process.memory.arrayBuffers',
    'process.memory.external',
    'process.memory.heapTotal',
    'process.memory.heapUsed',
    'process.memory.rss',
    'process.pid',
    'process.uptimeSeconds',
    'process.version',
    'ratelimit.service.config_load_error',
    'ratelimit.service.config_load_success',
    'ratelimit.service.rate_limit.basic.key1.total_hits',
    'ratelimit_server.ShouldRateLimit.total_requests',
  ]);
  t.same(
    lines.filter((l) => !l.startsWith('process.')),
    [
      'a.first: 1.5',
      'ratelimit.service.config_load_error: 0',
      'ratelimit.service.config_load_success: 2',
      'ratelimit.service.rate_limit.basic.key1.total_hits: 7',
      'ratelimit_server.ShouldRateLimit.total_requests: 9',
    ],
  );
  const figures = new Map(
    lines.filter((l) => l.startsWith('process.')).map((l) => {
      const i = l.indexOf(': ');
      return [l.slice(0, i), l.slice(i + 2)] as const;
    }),
  );
  t.equal(figures.get('process.cmdline'), JSON.stringify(process.argv));
  t.equal(figures.get('process.pid'), String(process.pid));
  t.equal(figures.get('process.version'), JSON.stringify(process.version));
  const byteCounts = ['process.memory.rss', 'process.memory.heapUsed', 'process.memory.heapTotal'];
  for (const name of byteCounts) {
    const value = Number(figures.get(name));
    t.ok(Number.isInteger(value) && value > 1024 * 1024, `${name} is a byte count (${value})`);
  }
  t.match(figures.get('process.uptimeSeconds'), /^\d+\.\d{3}$/);
  t.ok(Number(figures.get('process.uptimeSeconds')) > 0);
});

t.test('HEAD on a text route gives headers only', async (t) => {
  const res = await get('/rlconfig', { method: 'HEAD' });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), TEXT);
  t.equal(res.headers.get('content-length'), String(Buffer.byteLength(RLCONFIG)));
  t.equal(await res.text(), '');
});

t.test('/debug/pprof/ indexes the Node profiling endpoints', async (t) => {
  const res = await get('/debug/pprof/');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), TEXT);
  const body = await res.text();
  t.ok(body.startsWith('Node.js profiling endpoints'), 'starts with its title');
  for (const line of [
    '/debug/pprof/profile?seconds=N',
    '/debug/pprof/heap',
    '/debug/pprof/trace?seconds=N&categories=a,b',
    `    curl -o cpu.cpuprofile 'http://127.0.0.1:${server.port}/debug/pprof/profile?seconds=30'`,
    `    curl -o heap.heapsnapshot 'http://127.0.0.1:${server.port}/debug/pprof/heap'`,
    `    curl -o trace.json 'http://127.0.0.1:${server.port}/debug/pprof/trace?seconds=1'`,
  ]) {
    t.ok(body.split('\n').includes(line), `lists ${JSON.stringify(line)}`);
  }
});

t.test('/debug/pprof redirects to /debug/pprof/ like Go', async (t) => {
  const res = await get('/debug/pprof?x=1');
  t.equal(res.status, 301);
  t.equal(res.headers.get('location'), '/debug/pprof/?x=1');
});

t.test('unclean paths redirect to the clean path like Go', async (t) => {
  // node:http sends the target as written (fetch would resolve `.` and `..` itself).
  const rawGet = (path: string): Promise<http.IncomingMessage> =>
    new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path }, (res) => {
        res.resume();
        resolve(res);
      }).on('error', reject);
    });
  const cases: Array<[string, string]> = [
    ['//stats', '/stats'],
    ['/debug/./pprof/?x=1', '/debug/pprof/?x=1'],
    ['/a/../rlconfig', '/rlconfig'],
    ['/../../stats', '/stats'],
    ['/debug//pprof/', '/debug/pprof/'],
  ];
  for (const [path, location] of cases) {
    const res = await rawGet(path);
    t.equal(res.statusCode, 301, path);
    t.equal(res.headers.location, location, path);
  }
});

t.test('/stats answers 500 when the stats callback throws', async (t) => {
  const failing = await startDebugServer({
    host: '127.0.0.1',
    port: 0,
    stats: () => {
      throw new Error('store gone');
    },
    metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' }),
    rlconfig: () => 'x',
  });
  t.teardown(() => failing.close());
  const res = await fetch(`http://127.0.0.1:${failing.port}/stats`);
  t.equal(res.status, 500);
  t.equal(await res.text(), 'internal error: store gone\n');
  t.equal(await (await fetch(`http://127.0.0.1:${failing.port}/rlconfig`)).text(), 'x');
});

t.test('CPU profile: 1 second, DevTools .cpuprofile JSON, one at a time', async (t) => {
  const started = Date.now();
  const pending = get('/debug/pprof/profile?seconds=1');
  // While the first profile runs a second one is refused.
  await new Promise((r) => setTimeout(r, 200));
  const busy = await get('/debug/pprof/profile?seconds=1');
  t.equal(busy.status, 409);
  t.equal(busy.headers.get('content-type'), TEXT);
  t.equal(
    await busy.text(),
    'a CPU profile is already being taken; try again when it has finished\n',
  );

  const res = await pending;
  const elapsed = Date.now() - started;
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  t.equal(res.headers.get('content-disposition'), 'attachment; filename="profile.cpuprofile"');
  t.ok(elapsed >= 950, `took about a second (${elapsed} ms)`);
  const profile = (await res.json()) as {
    nodes: Array<{ id: number; callFrame: { functionName: string } }>;
    startTime: number;
    endTime: number;
    samples: number[];
  };
  t.ok(Array.isArray(profile.nodes) && profile.nodes.length > 0, 'has nodes');
  t.equal(profile.nodes[0]?.callFrame.functionName, '(root)');
  t.type(profile.startTime, 'number');
  const spanMicros = profile.endTime - profile.startTime;
  t.ok(spanMicros >= 900_000 && spanMicros < 5_000_000, `spans ~1 s (${spanMicros} µs)`);
  t.ok(Array.isArray(profile.samples), 'has samples');

  // The slot was released: another profile may start.
  const again = await get('/debug/pprof/profile?seconds=1');
  t.equal(again.status, 200);
  await again.arrayBuffer();
});

t.test('bad seconds are rejected with 400', async (t) => {
  const profile = '/debug/pprof/profile?seconds=';
  const upTo300 = ': must be a whole number from 1 to 300\n';
  const cases: Array<[string, string]> = [
    [profile + 'abc', 'invalid seconds "abc"' + upTo300],
    [profile + '0', 'invalid seconds "0"' + upTo300],
    [profile + '301', 'invalid seconds "301"' + upTo300],
    [profile + '-5', 'invalid seconds "-5"' + upTo300],
    [profile + '1.5', 'invalid seconds "1.5"' + upTo300],
    [profile + '1e2', 'invalid seconds "1e2"' + upTo300],
    [
      '/debug/pprof/trace?seconds=61',
      'invalid seconds "61": must be a whole number from 1 to 60\n',
    ],
    ['/debug/pprof/trace?categories=v8,bad%20cat', 'invalid trace category "bad cat"\n'],
  ];
  for (const [path, message] of cases) {
    const res = await get(path);
    t.equal(res.status, 400, path);
    t.equal(res.headers.get('content-type'), TEXT, path);
    t.equal(await res.text(), message, path);
  }
});

t.test('heap snapshot streams a .heapsnapshot', async (t) => {
  const res = await get('/debug/pprof/heap');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  t.equal(res.headers.get('content-disposition'), 'attachment; filename="heap.heapsnapshot"');
  const snapshot = (await res.json()) as {
    snapshot: { meta: { node_fields: string[] }; node_count: number };
    nodes: number[];
    strings: string[];
  };
  t.type(snapshot.snapshot, 'object');
  t.equal(snapshot.snapshot.meta.node_fields[0], 'type');
  t.ok(snapshot.snapshot.node_count > 1000, `has nodes (${snapshot.snapshot.node_count})`);
  const { node_count, meta } = snapshot.snapshot;
  t.equal(snapshot.nodes.length, node_count * meta.node_fields.length, 'node table is complete');
  t.ok(snapshot.strings.includes('startDebugServer'), 'names functions of this process');
});

t.test('trace records Chrome trace events', async (t) => {
  const res = await get('/debug/pprof/trace?seconds=1&categories=node,v8');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  t.equal(res.headers.get('content-disposition'), 'attachment; filename="trace.json"');
  const trace = (await res.json()) as {
    traceEvents: Array<{ ph: string; cat: string; pid: number }>;
  };
  t.ok(Array.isArray(trace.traceEvents), 'has traceEvents');
  t.ok(trace.traceEvents.length > 0, `recorded events (${trace.traceEvents.length})`);
  t.ok(
    trace.traceEvents.every((e) => typeof e.ph === 'string' && e.pid === process.pid),
    'events are trace-event records of this process',
  );
});

t.test('unknown paths answer 404 like Go', async (t) => {
  for (const path of ['/nope', '/json', '/stats/', '/rlconfig/x']) {
    const res = await get(path);
    t.equal(res.status, 404, path);
    t.equal(res.headers.get('content-type'), TEXT, path);
    t.equal(await res.text(), '404 page not found\n', path);
  }
  const res = await get('/debug/pprof/goroutine?debug=2');
  t.equal(res.status, 404);
  t.equal(await res.text(), 'Unknown profile\n');
  const post = await get('/nope', { method: 'POST', body: 'x' });
  t.equal(post.status, 404, 'unknown path wins over bad method');
  t.equal(await post.text(), '404 page not found\n');
});

t.test('other methods answer 405 with Allow', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['POST', '/stats', 'GET, HEAD'],
    ['PUT', '/rlconfig', 'GET, HEAD'],
    ['DELETE', '/', 'GET, HEAD'],
    ['POST', '/debug/pprof/profile?seconds=1', 'GET'],
    ['HEAD', '/debug/pprof/heap', 'GET'],
  ];
  for (const [method, path, allow] of cases) {
    const withBody = method === 'POST' || method === 'PUT';
    const res = await get(path, withBody ? { method, body: '{}' } : { method });
    t.equal(res.status, 405, `${method} ${path}`);
    t.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    t.equal(await res.text(), method === 'HEAD' ? '' : 'Method Not Allowed\n', `${method} ${path}`);
  }
});

t.test('a client leaving mid-profile frees the profiler and is logged', async (t) => {
  const before = logs.length;
  const controller = new AbortController();
  const pending = get('/debug/pprof/profile?seconds=30', { signal: controller.signal });
  await new Promise((r) => setTimeout(r, 200));
  controller.abort();
  await t.rejects(pending, { name: 'AbortError' });

  // The slot is released quickly (not after 30 s) and the server keeps serving.
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const res = await get('/debug/pprof/profile?seconds=1');
    status = res.status;
    await res.arrayBuffer();
  }
  t.equal(status, 200, 'a new profile can start');
  const mine = logs.slice(before).map((l) => l.msg);
  t.ok(mine.includes('debug server: client went away before the response was complete'));
  t.ok(mine.includes('debug server: capture abandoned'));
});

t.test('a client leaving mid-heap-snapshot does not break the server', async (t) => {
  // Raw socket: send the request, read a little of the body, then hang up.
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => {
      socket.write('GET /debug/pprof/heap HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 1024) socket.destroy();
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  // The slot is freed once the stream notices and the server still answers.
  let status = 0;
  for (let i = 0; i < 100 && status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const res = await get('/debug/pprof/heap');
    status = res.status;
    await res.arrayBuffer();
  }
  t.equal(status, 200, 'a new heap snapshot can be taken');
  t.equal((await get('/rlconfig')).status, 200);
});

t.test('a port already in use rejects startDebugServer', async (t) => {
  await t.rejects(
    startDebugServer({ host: '127.0.0.1', port: server.port, stats: () => [], rlconfig: () => '', metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }) }),
    { code: 'EADDRINUSE' },
  );
});

t.test('close() stops a running profile and the listener', async (t) => {
  const other = await startDebugServer({
    host: '127.0.0.1',
    port: 0,
    stats: () => [],
    metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' }),
    rlconfig: () => '',
  });
  const url = `http://127.0.0.1:${other.port}`;
  const stats = await fetch(url + '/stats');
  t.equal(stats.status, 200);
  t.match(await stats.text(), /^process\.cmdline: /);

  const pending = fetch(url + '/debug/pprof/profile?seconds=300').then(
    (r) => r.status,
    (e: unknown) => e,
  );
  await new Promise((r) => setTimeout(r, 200));
  const started = Date.now();
  await other.close();
  t.ok(Date.now() - started < 2000, 'close() does not wait for the profile');
  t.type(await pending, Error, 'the in-flight request is cut off');
  await t.rejects(fetch(url + '/'), 'nothing listens any more');
  await other.close(); // idempotent

  // The CPU slot is free again for the main server.
  const res = await get('/debug/pprof/profile?seconds=1');
  t.equal(res.status, 200);
  await res.arrayBuffer();
});
