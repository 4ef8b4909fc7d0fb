/**
 * Statistics named after client input stay bounded. Per-value `detailed_metric` rules, limit
 * overrides and unknown domains used to create counters without end: 200,000 requests made
 * 400,000 `/stats` lines, RSS grew by 600 MB, and every thread spent its idle time walking every
 * counter. Now distinct names stop at STATS_MAX_NAMES, the rest counts in one overflow counter,
 * and an idle process stays idle.
 */
import t from 'tap';
import { cpuTimeMs } from '../support/process-memory.js';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';

const RULES = `domain: d
descriptors:
  - key: user
    detailed_metric: true
    rate_limit: {unit: minute, requests_per_unit: 1000}
`;
const MAX_NAMES = 600;
const REQUESTS = 1800;

/** Sends `count` requests, `concurrency` at a time, each built by `body(i)`. */
async function flood(proc: ServiceProcess, count: number, concurrency: number, body: (i: number) => unknown): Promise<number> {
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const r = await proc.post(body(next++));
        if (r.status === 200 || r.status === 429) answered++;
      }
    }),
  );
  return answered;
}

t.test('distinct statistic names stop at STATS_MAX_NAMES; an idle process stays idle', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '1', STATS_MAX_NAMES: String(MAX_NAMES) });
  const third = REQUESTS / 3;
  const answered =
    (await flood(proc, third, 32, (i) => ({ domain: 'd', descriptors: [D('user', `detailed-${i}`)] }))) +
    (await flood(proc, third, 32, (i) => ({ domain: `unknown-${i}`, descriptors: [D('user', 'x')] }))) +
    (await flood(proc, third, 32, (i) => ({ domain: 'd', descriptors: [{ ...D(`key-${i}`, 'v'), limit: { requestsPerUnit: 5, unit: 'MINUTE' } }] })));
  t.equal(answered, REQUESTS, 'every request answered');

  const lines = (await proc.debug('/stats')).text.split('\n').filter((line) => line.startsWith('ratelimit.'));
  // Each thread keeps at most MAX_NAMES; the main thread's store, which /stats shows, too.
  t.ok(lines.length <= MAX_NAMES, `/stats shows ${lines.length} ratelimit.* statistics (bound ${MAX_NAMES})`);
  const overflow = (await proc.stat('ratelimit.stats.overflow')) ?? 0;
  const folded = (await proc.stat('ratelimit.stats.names_folded')) ?? 0;
  t.ok(overflow > 0, `the overflow counter took ${overflow} increments`);
  t.ok(folded > 0, `${folded} new names were folded`);
  t.match(proc.stderr, /too many distinct statistic names/, 'the first fold is logged');

  const pid = proc.child.pid as number;
  const before = await cpuTimeMs(pid);
  const started = Date.now();
  // An idle window: no requests. The seconds here are what is measured, not a wait for an event.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const cpu = ((await cpuTimeMs(pid)) - before) / 1000;
  const share = cpu / ((Date.now() - started) / 1000);
  t.ok(share < 0.1, `idle CPU ${(share * 100).toFixed(1)}% of one core (was 184-198% with unbounded statistics)`);
});
