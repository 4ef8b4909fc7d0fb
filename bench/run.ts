/**
 * `npm run bench`: starts the service on free ports with the bench config (limit 1e9/s, so
 * every answer is 200), then runs autocannon for a fixed duration against each route of
 * routes.ts and prints req/s, p50/p99 latency and status counts.
 *
 *   npm run bench -- --duration 10 --connections 64 --route json
 *
 * The service gets the caller's HTTP_WORKERS / DECISION_MODE / POOL_THREADS when set.
 * autocannon is one Node thread on the same 2 cores as the service, so it saturates first:
 * these figures compare runs of this harness; ceilings and ratios come from native-bench/.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBenchService, writeBenchConfig } from './bench-fixture.js';
import { ROUTES, type BenchRoute } from './routes.js';

const WARM_UP_SECONDS = 2;

interface RouteResult {
  route: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  expected: number;
  unexpected: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

function options(): { duration: number; connections: number; route: string | undefined } {
  const { values } = parseArgs({
    options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '64' }, route: { type: 'string' } },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!(duration > 0) || !Number.isInteger(connections) || connections < 1) {
    throw new Error('usage: bench [--duration SECONDS] [--connections N] [--route NAME-SUBSTRING]');
  }
  return { duration, connections, route: values.route };
}

async function drive(baseUrl: string, route: BenchRoute, duration: number, connections: number): Promise<RouteResult> {
  const run = (seconds: number) =>
    autocannon({
      url: baseUrl + route.path,
      method: route.method,
      connections,
      duration: seconds,
      ...(route.headers === undefined ? {} : { headers: route.headers }),
      ...(route.body === undefined ? {} : { body: route.body }),
    });
  await run(Math.min(WARM_UP_SECONDS, duration));
  const r = await run(duration);
  const statuses: Record<string, number> = {};
  let expected = 0;
  let total = 0;
  for (const [status, { count }] of Object.entries(r.statusCodeStats)) {
    statuses[status] = count;
    total += count;
    if (route.expectedStatuses.includes(Number(status))) expected += count;
  }
  return {
    route: route.name,
    reqPerSec: total / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    total,
    expected,
    unexpected: total - expected,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
  };
}

function printTable(results: RouteResult[]): void {
  const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'responses', 'non-2xx', 'unexpected', 'errors', 'timeouts', 'statuses'];
  const rows = results.map((r) => [
    r.route,
    r.reqPerSec.toFixed(0),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    String(r.total),
    String(r.non2xx),
    String(r.unexpected),
    String(r.errors),
    String(r.timeouts),
    Object.entries(r.statuses).map(([s, n]) => `${s}:${n}`).join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const { duration, connections, route } = options();
  const routes = ROUTES.filter((r) => route === undefined || r.name.includes(route));
  if (routes.length === 0) throw new Error(`no route matches ${route}`);
  const config = await writeBenchConfig();
  const env: Record<string, string> = { ...config.env };
  for (const name of ['HTTP_WORKERS', 'DECISION_MODE', 'POOL_THREADS']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const service = await startBenchService(env);
  try {
    const settings = ['HTTP_WORKERS', 'DECISION_MODE', 'POOL_THREADS'].map((n) => `${n}=${env[n] ?? '(default)'}`).join(' ');
    console.log(`service on ${service.baseUrl} (${settings}); autocannon ${connections} connections, ` +
      `${duration} s per route after a ${Math.min(WARM_UP_SECONDS, duration)} s warm-up`);
    const results: RouteResult[] = [];
    for (const r of routes) results.push(await drive(service.baseUrl, r, duration, connections));
    printTable(results);
    if (results.some((r) => r.unexpected > 0 || r.errors > 0)) process.exitCode = 1;
  } finally {
    await service.stop();
    await config.remove();
  }
}

await main();
