/**
 * The debug port's captures (CPU profile, heap snapshot, trace) hold what the process holds, so
 * DEBUG_TOKEN guards them: real debug servers, one with a token and one listening beyond
 * loopback without one, asked over real sockets. The pages that show no memory stay open.
 */
import t, { type Test } from 'tap';
import { isLoopbackHost, startDebugServer, type DebugServer } from '../../../src/transports/debug/index.js';

const TOKEN = 'd3bug-t0ken-for-tests';

interface Logged {
  level: 'info' | 'warn';
  msg: string;
  fields: Record<string, unknown> | undefined;
}

async function debugServer(t: Test, host: string, token: string | undefined, logs: Logged[] = []): Promise<DebugServer> {
  const server = await startDebugServer({
    host,
    port: 0,
    stats: () => [['a', 1]],
    rlconfig: () => '',
    metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
    ...(token === undefined ? {} : { token }),
    logger: {
      info: (msg, fields) => logs.push({ level: 'info', msg, fields }),
      warn: (msg, fields) => logs.push({ level: 'warn', msg, fields }),
    },
  });
  t.teardown(() => server.close());
  return server;
}

t.test('which listen addresses count as loopback', async (t) => {
  for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) t.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '::', '', '10.1.2.3', '192.168.0.1', 'example.internal', '::ffff:10.0.0.1']) t.notOk(isLoopbackHost(host), host);
});

t.test('with DEBUG_TOKEN set, a capture needs it as a bearer token or ?token=', async (t) => {
  const logs: Logged[] = [];
  const server = await debugServer(t, '127.0.0.1', TOKEN, logs);
  const base = `http://127.0.0.1:${server.port}`;

  const none = await fetch(`${base}/debug/pprof/heap`);
  t.equal(none.status, 401, 'no token: 401');
  t.equal(none.headers.get('www-authenticate'), 'Bearer');
  t.equal(await none.text(), 'this capture needs DEBUG_TOKEN: send it as a bearer token or ?token=\n');

  const wrong = await fetch(`${base}/debug/pprof/profile?seconds=1`, { headers: { authorization: 'Bearer not-the-token' } });
  t.equal(wrong.status, 401, 'a wrong bearer token: 401');
  await wrong.text();
  const wrongQuery = await fetch(`${base}/debug/pprof/trace?seconds=1&token=${TOKEN}x`);
  t.equal(wrongQuery.status, 401, 'a token that only starts like the right one: 401');
  await wrongQuery.text();

  const bearer = await fetch(`${base}/debug/pprof/profile?seconds=1`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(bearer.status, 200, 'the bearer token takes a CPU profile');
  t.ok(Array.isArray((JSON.parse(await bearer.text()) as { nodes?: unknown }).nodes), 'and the body is a .cpuprofile');

  const query = await fetch(`${base}/debug/pprof/trace?seconds=1&token=${TOKEN}`);
  t.equal(query.status, 200, '?token= records a trace');
  await query.text();

  for (const path of ['/', '/stats', '/rlconfig', '/metrics', '/debug/pprof/']) {
    const page = await fetch(`${base}${path}`);
    t.equal(page.status, 200, `${path} shows no memory and needs no token`);
    await page.text();
  }
  t.notOk(JSON.stringify(logs).includes(TOKEN), 'the token never reaches the log');
});

t.test('beyond loopback without DEBUG_TOKEN, captures answer 403 and the start says so', async (t) => {
  const logs: Logged[] = [];
  const server = await debugServer(t, '0.0.0.0', undefined, logs);
  const base = `http://127.0.0.1:${server.port}`;

  for (const path of ['/debug/pprof/heap', '/debug/pprof/profile?seconds=1', '/debug/pprof/trace?seconds=1']) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: 'Bearer anything' } });
    t.equal(res.status, 403, `${path}: 403`);
    t.equal(
      await res.text(),
      'profiles and heap snapshots are off: the debug port listens on 0.0.0.0, beyond loopback, and DEBUG_TOKEN is not set\n',
    );
  }
  const stats = await fetch(`${base}/stats`);
  t.equal(stats.status, 200, '/stats still answers');
  t.match(await stats.text(), /^a: 1$/m);
  t.match(
    logs.filter((l) => l.level === 'warn'),
    [{ msg: /beyond loopback without DEBUG_TOKEN/, fields: { host: '0.0.0.0', port: server.port } }],
    'one warning at start',
  );
});

t.test('on loopback without DEBUG_TOKEN, captures stay open as upstream', async (t) => {
  const logs: Logged[] = [];
  const server = await debugServer(t, '127.0.0.1', undefined, logs);
  const res = await fetch(`http://127.0.0.1:${server.port}/debug/pprof/profile?seconds=1`);
  t.equal(res.status, 200);
  await res.text();
  t.notOk(logs.some((l) => l.level === 'warn'), 'no warning');
});
