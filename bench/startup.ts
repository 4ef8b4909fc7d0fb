/**
 * `npm run bench:startup [-- --runs 7]`: what a start of the service costs. For each layout, the
 * time from spawning `node` to the `ready` line and, with the alert and score APIs, to both APIs'
 * open lines, and the CPU the process had used by then (every thread of it). The ceiling in the
 * same run is a bare uWS server (native-bench/bare-uws-server.ts): Node starting, loading uWS
 * and listening. Runs are interleaved across the layouts, so a change in the host's speed during
 * the run weighs on all of them alike; medians are printed.
 *
 * Layouts: decisions alone on one HTTP thread (what most of the end-to-end tests start), and the
 * defaults (both APIs, an HTTP thread per core, statistics to a statsd daemon nobody runs).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseListeningPort } from '../native-bench/bare-reply.js';
import { ManagedProcess } from '../test/support/managed-process.js';
import { spawnProcess } from '../test/support/process-harness.js';
import { cpuTimeMs } from '../test/support/process-memory.js';
import { LOCAL_LISTENERS_ENV } from '../test/support/service-inputs.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { writeBenchConfig } from './bench-fixture.js';
import { SERVER_NODE_FLAGS } from './node-flags.js';

const BARE_UWS = join(fileURLToPath(new URL('../native-bench/', import.meta.url)), 'bare-uws-server.js');

interface Start {
  readyMs: number;
  /** To both APIs' open lines; undefined for a layout without them. */
  apisOpenMs: number | undefined;
  cpuMs: number;
}

interface Layout {
  name: string;
  start(): Promise<Start>;
}

async function bareUws(): Promise<Start> {
  const started = performance.now();
  const proc = new ManagedProcess({ command: process.execPath, args: [...SERVER_NODE_FLAGS, BARE_UWS] });
  try {
    await proc.waitFor('LISTENING <port>', parseListeningPort);
    const readyMs = performance.now() - started;
    return { readyMs, apisOpenMs: undefined, cpuMs: await cpuTimeMs(proc.child.pid as number) };
  } finally {
    await proc.stop();
  }
}

async function service(env: Record<string, string>, apis: readonly string[]): Promise<Start> {
  const data = await makeTempDir('bench-startup-');
  const started = performance.now();
  const proc = spawnProcess(undefined, { ...LOCAL_LISTENERS_ENV, DATA_DIR: data.path, ...env }, { nodeFlags: SERVER_NODE_FLAGS });
  try {
    await proc.listening(30_000);
    const readyMs = performance.now() - started;
    let apisOpenMs: number | undefined;
    if (apis.length > 0) {
      await proc.apisOpen(apis, 30_000);
      apisOpenMs = performance.now() - started;
    }
    return { readyMs, apisOpenMs, cpuMs: await cpuTimeMs(proc.child.pid as number) };
  } finally {
    await proc.stop();
    await data.remove();
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value).toLocaleString('en')} ms`);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
  const runs = Number(values.runs);
  const rules = await writeBenchConfig();
  const layouts: Layout[] = [
    { name: 'bare uWS server (ceiling)', start: bareUws },
    { name: 'decisions alone, one HTTP thread (APIS=none HTTP_WORKERS=1)', start: () => service({ ...rules.env, APIS: 'none', HTTP_WORKERS: '1' }, []) },
    { name: 'defaults: both APIs, an HTTP thread per core, statsd', start: () => service({ ...rules.env, DISABLE_STATS: 'false' }, ['alerts', 'scores']) },
  ];
  const starts = new Map<Layout, Start[]>(layouts.map((layout) => [layout, []]));
  try {
    for (let run = 0; run < runs; run++) {
      for (const layout of layouts) starts.get(layout)?.push(await layout.start());
    }
  } finally {
    await rules.remove();
  }
  const ceiling = median((starts.get(layouts[0] as Layout) ?? []).map((start) => start.cpuMs));
  console.log(`\nservice start, median of ${runs} (node ${process.version}, ${SERVER_NODE_FLAGS.join(' ')})\n`);
  console.log('| layout | to ready | to both APIs open | CPU by then | CPU / ceiling |');
  console.log('|---|---|---|---|---|');
  for (const layout of layouts) {
    const of = starts.get(layout) ?? [];
    const cpu = median(of.map((start) => start.cpuMs));
    const apis = of.every((start) => start.apisOpenMs === undefined) ? undefined : median(of.map((start) => start.apisOpenMs ?? 0));
    console.log(`| ${layout.name} | ${ms(median(of.map((start) => start.readyMs)))} | ${ms(apis)} | ${ms(cpu)} | ${(cpu / ceiling).toFixed(1)} |`);
  }
}

await main();
