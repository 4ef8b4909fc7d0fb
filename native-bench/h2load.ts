/**
 * h2load runs: gRPC at maximum rate (h2c, many streams per connection), and fixed-rate runs for
 * both protocols (`--rps` per client; `--h1` for HTTP/1.1). `-d FILE` posts FILE as the body
 * (it makes the method POST; over HTTP/1.1 it also limits each connection to one request in
 * flight). Latency and statuses come from `--log-file`, one row per request.
 */
import { rm } from 'node:fs/promises';
import type { Measurement } from './measurement.js';
import { readLatencyLog } from './latency-log.js';
import { runChecked } from './run-command.js';

export interface H2loadRun {
  url: string;
  /** Body file (`-d`). */
  dataFile: string;
  headers: readonly string[];
  /** HTTP/1.1 instead of h2c. */
  h1: boolean;
  clients: number;
  /** Concurrent streams per connection (`-m`); ignored by h2load for HTTP/1.1 with -d. */
  streams: number;
  seconds: number;
  /** Requests per second per client; absent: as fast as possible. */
  rpsPerClient?: number;
  /** Absent: no per-request log (warm-up runs). */
  logFile?: string;
  cpus: string;
}

function argsOf(run: H2loadRun): string[] {
  const args = ['-t1', `-c${run.clients}`, `-m${run.streams}`, '-D', String(run.seconds), '-d', run.dataFile];
  for (const header of run.headers) args.push('-H', header);
  if (run.h1) args.push('--h1');
  if (run.rpsPerClient !== undefined) args.push(`--rps=${run.rpsPerClient}`);
  if (run.logFile !== undefined) args.push(`--log-file=${run.logFile}`);
  args.push(run.url);
  return args;
}

/** `finished in 10.00s, 11735.40 req/s, 1.23MB/s` */
function reqPerSecOf(stdout: string): number {
  const m = /finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(stdout);
  if (m === null) throw new Error(`h2load printed no rate:\n${stdout}`);
  return Number(m[1]);
}

/** `requests: 1 total, 1 started, 1 done, 1 succeeded, 0 failed, 0 errored, 0 timeout` */
function summaryOf(stdout: string): Record<string, number> {
  const m = /requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/.exec(stdout);
  if (m === null) throw new Error(`h2load printed no request summary:\n${stdout}`);
  const [total, started, done, succeeded, failed, errored, timeout] = m.slice(1).map(Number) as number[];
  return { total: total!, started: started!, done: done!, succeeded: succeeded!, failed: failed!, errored: errored!, timeout: timeout! };
}

export async function runH2load(run: H2loadRun): Promise<Measurement> {
  const args = argsOf(run);
  // h2load appends to an existing log: without this, a row's percentiles pooled every earlier round.
  if (run.logFile !== undefined) await rm(run.logFile, { force: true });
  const out = await runChecked('h2load', args, run.cpus);
  const command = `taskset -c ${run.cpus} h2load ${args.join(' ')}`;
  const reqPerSec = reqPerSecOf(out.stdout);
  const summary = summaryOf(out.stdout);
  if (run.logFile === undefined) {
    return { command, reqPerSec, p50Us: Number.NaN, p99Us: Number.NaN, status200: null, status429: null, errors: summary.failed! + summary.timeout!, errorDetail: {} };
  }
  const log = await readLatencyLog(run.logFile);
  const errorDetail: Record<string, number> = { timeout: summary.timeout ?? 0 };
  for (const [status, count] of log.statuses) {
    if (status !== 200 && status !== 429) errorDetail[status === -1 ? 'failedStream' : `status${status}`] = count;
  }
  return {
    command,
    reqPerSec,
    p50Us: log.p50Us,
    p99Us: log.p99Us,
    maxUs: log.maxUs,
    status200: log.statuses.get(200) ?? 0,
    status429: log.statuses.get(429) ?? 0,
    errors: Object.values(errorDetail).reduce((a, b) => a + b, 0),
    errorDetail,
    ...(run.rpsPerClient === undefined ? {} : { targetRate: run.rpsPerClient * run.clients }),
  };
}
