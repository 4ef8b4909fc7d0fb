/**
 * `npm run bench:large-rules [-- --rules 200000 --rest 5]`: how long `/json` and gRPC requests
 * wait while a rules file of `--rules` descriptors (about 95 bytes each) comes into service. Two
 * `/json` and two gRPC loops, each paced at about 500 requests per second as a sidecar's traffic
 * is, run for `--rest` seconds on the small rules (the ceiling: the same service at rest), then
 * while the large file is parsed on the rules loader thread and compiled by each deciding thread a
 * slice at a time. Prints p50, p99 and the slowest request of each phase and their ratios, and
 * how long the file took to come into service.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SMALL_BIG_RULES, writeBigRules } from '../test/support/big-rules.js';
import { firstLimit, RlsClient, toGrpcRequest } from '../test/support/grpc-client.js';
import { startProcess } from '../test/support/process-harness.js';
import { makeTempDir } from '../test/support/temp-dir.js';

const { values } = parseArgs({ options: { rules: { type: 'string', default: '200000' }, rest: { type: 'string', default: '5' } } });
const RULES = Number(values.rules);
const REST_MS = Number(values.rest) * 1000;

const temp = await makeTempDir('rl-bench-large-');
const dir = join(temp.path, 'ratelimit', 'config');
await mkdir(dir, { recursive: true });
await writeFile(join(dir, 'big.yaml'), SMALL_BIG_RULES);
// The service as deployed (its default threads), on the example's statistics settings.
const proc = await startProcess(undefined, { RUNTIME_ROOT: temp.path, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_WATCH_ROOT: 'false', HTTP_WORKERS: '2', LOG_LEVEL: 'warn' });
const grpc = new RlsClient(proc.grpcAddress);

const ask = (value: string) => ({ domain: 'big', descriptors: [{ entries: [{ key: 'user', value }], hitsAddend: 0 }] });
const limitViaJson = async (value: string) => (await proc.post(ask(value))).json?.statuses?.[0]?.currentLimit?.requestsPerUnit;
const limitViaGrpc = async (value: string) => firstLimit(await grpc.call(toGrpcRequest(ask(value))));

/** Runs the four loops until `until` settles; every request's milliseconds. */
async function measure(until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let running = true;
  const loop = async (call: (value: string) => Promise<unknown>) => {
    while (running) {
      const started = performance.now();
      await call('u1');
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const loops = [loop(limitViaJson), loop(limitViaJson), loop(limitViaGrpc), loop(limitViaGrpc)];
  await until;
  running = false;
  await Promise.all(loops);
  return times;
}

function summary(times: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

try {
  const rest = summary(await measure(new Promise((resolve) => setTimeout(resolve, REST_MS))));
  await writeBigRules(join(temp.path, 'big.yaml.tmp'), RULES);
  await rename(join(temp.path, 'big.yaml.tmp'), join(dir, 'big.yaml'));
  const started = performance.now();
  const inService = (async () => {
    while ((await limitViaJson('u1')) !== 2 || (await limitViaGrpc('u1')) !== 2) await new Promise((resolve) => setTimeout(resolve, 100));
  })();
  const loading = summary(await measure(inService));
  const loadSeconds = (performance.now() - started) / 1000;
  const row = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(22)} ${String(s.n).padStart(7)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.max.toFixed(1).padStart(9)}`;
  console.log(`${RULES} descriptors came into service in ${loadSeconds.toFixed(1)} s`);
  console.log(`${'phase'.padEnd(22)} ${'requests'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'slowest'.padStart(9)}`);
  console.log(row('at rest (ceiling)', rest));
  console.log(row('while loading', loading));
  console.log(`ratio while loading / at rest: p99 ${(loading.p99 / rest.p99).toFixed(2)}, slowest ${(loading.max / rest.max).toFixed(2)}`);
} finally {
  grpc.close();
  await proc.stop();
  await temp.remove();
}
