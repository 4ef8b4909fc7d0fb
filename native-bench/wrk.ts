/**
 * HTTP maximum throughput with wrk: `wrk -t1 -c64 -d<D>s -s post.lua`. The Lua script sets a
 * static POST (no per-request Lua, so wrk stays fast) and prints the exact figures once at the
 * end from wrk's own histogram: requests, duration, socket errors, non-2xx/3xx and p50/p99.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Measurement } from './measurement.js';
import { runChecked } from './run-command.js';

export const WRK_THREADS = 1;
export const WRK_CONNECTIONS = 64;

/** Writes the script that posts `body` and reports a `WRK_JSON {...}` line; returns its path. */
export async function writeWrkScript(dir: string, body: string): Promise<string> {
  if (body.includes(']]')) throw new Error('the request body cannot sit in a Lua long string');
  return writeScript(join(dir, 'post.lua'), `wrk.method = "POST"
wrk.body = [[${body}]]
wrk.headers["Content-Type"] = "application/json"
`);
}

/** The same summary for plain GETs of the URL wrk is given. */
export function writeWrkGetScript(dir: string): Promise<string> {
  return writeScript(join(dir, 'get.lua'), 'wrk.method = "GET"\n');
}

async function writeScript(path: string, request: string): Promise<string> {
  await writeFile(
    path,
    `${request}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%.0f,"durationUs":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f,"p50Us":%.0f,"p99Us":%.0f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`,
  );
  return path;
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
}

export async function runWrk(url: string, script: string, seconds: number, cpus: string): Promise<Measurement> {
  const args = [`-t${WRK_THREADS}`, `-c${WRK_CONNECTIONS}`, `-d${seconds}s`, '-s', script, url];
  const out = await runChecked('wrk', args, cpus);
  const line = /^WRK_JSON (\{.*\})$/m.exec(out.stdout);
  if (line === null) throw new Error(`wrk printed no summary:\n${out.stdout}\n${out.stderr}`);
  const s = JSON.parse(line[1] as string) as WrkSummary;
  const errorDetail = { non2xx3xx: s.status, connect: s.connect, read: s.read, write: s.write, timeout: s.timeout };
  return {
    command: `taskset -c ${cpus} wrk ${args.join(' ')}`,
    reqPerSec: s.requests / (s.durationUs / 1e6),
    p50Us: s.p50Us,
    p99Us: s.p99Us,
    // wrk only counts "not 2xx/3xx": with a 1e9/s limit every answer should be 200.
    status200: null,
    status429: null,
    errors: Object.values(errorDetail).reduce((a, b) => a + b, 0),
    errorDetail,
  };
}
