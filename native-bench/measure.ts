/**
 * The measurements of one target and protocol: maximum rate (HTTP: wrk; gRPC: h2load), then
 * (for a service row) the ceiling's maximum rate again, right away, then a fixed rate of half
 * the target's maximum (h2load `--rps`, per-request log). Each is preceded by a probe that
 * checks a real answer, and for the service the debug server's error counters are read around
 * each run.
 */
import { join } from 'node:path';
import { readStat } from '../test/support/process-harness.js';
import { cpuTimeMs } from '../test/support/process-memory.js';
import { GRPC_CLIENTS, GRPC_STREAMS, GRPC_WARM_UP_SECONDS, LATENCY_GRPC_CLIENTS, LATENCY_GRPC_STREAMS, LATENCY_HTTP_CLIENTS, LOAD_CPUS, WARM_UP_SECONDS } from './fairness.js';
import { GRPC_HEADERS, GRPC_PATH } from './grpc-frame.js';
import { runH2load } from './h2load.js';
import type { Measurement } from './measurement.js';
import { probeGrpc, probeHttp } from './probes.js';
import type { Endpoints, Protocol } from './targets.js';
import { WRK_CONNECTIONS, runWrk } from './wrk.js';

/** Files every run shares (same bytes for every target). */
export interface Workspace {
  dir: string;
  bodyFile: string;
  grpcFrameFile: string;
  grpcFrame: Buffer;
  wrkScript: string;
}

export interface TargetRuns {
  max: Measurement;
  /** The ceiling's maximum rate, measured just after `max` (absent for the ceilings themselves). */
  pairedCeiling?: Measurement;
  half: Measurement;
}

const SERVICE_ERROR_STATS = [
  'ratelimit.service.call.should_rate_limit.service_error',
  'ratelimit.service.call.should_rate_limit.redis_error',
];

/** Sum of the service's error counters (0 for bare servers, which have none). */
async function serviceErrors(endpoints: Endpoints): Promise<number> {
  if (endpoints.debug === undefined) return 0;
  let sum = 0;
  for (const name of SERVICE_ERROR_STATS) sum += (await readStat(endpoints.debug, name)) ?? 0;
  return sum;
}

/** CPU time of a process so far, in milliseconds; undefined when there is no such process. */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  return cpuTimeMs(pid).catch(() => undefined);
}

/** Runs `measure` and adds the server's CPU time per request to its figures. */
export async function withCpu(endpoints: Endpoints, seconds: number, measure: () => Promise<Measurement>): Promise<Measurement> {
  const before = await cpuMs(endpoints.pid);
  const m = await measure();
  const after = await cpuMs(endpoints.pid);
  const requests = m.reqPerSec * seconds;
  if (before !== undefined && after !== undefined && requests > 0) m.cpuUsPerRequest = ((after - before) * 1000) / requests;
  return m;
}

/** Runs `measure` and adds the service errors counted meanwhile to its figures. */
async function withServiceErrors(endpoints: Endpoints, measure: () => Promise<Measurement>): Promise<Measurement> {
  const before = await serviceErrors(endpoints);
  const m = await measure();
  const delta = (await serviceErrors(endpoints)) - before;
  if (endpoints.debug !== undefined) {
    m.errorDetail['serviceErrors'] = delta;
    m.errors += delta;
  }
  return m;
}

/** Per-client rate for `total` req/s over `clients` connections (h2load takes a decimal). */
function perClient(total: number, clients: number): number {
  return Math.max(0.01, Math.round((total / clients) * 100) / 100);
}

const httpUrl = (port: number) => `http://127.0.0.1:${port}/json`;

function maxHttp(ws: Workspace, port: number, endpoints: Endpoints, seconds: number): Promise<Measurement> {
  return withServiceErrors(endpoints, () => withCpu(endpoints, seconds, () => runWrk(httpUrl(port), ws.wrkScript, seconds, LOAD_CPUS)));
}

async function measureHttp(ws: Workspace, port: number, endpoints: Endpoints, seconds: number, tag: string, ceiling?: Endpoints): Promise<TargetRuns> {
  const url = httpUrl(port);
  await probeHttp(port);
  await runWrk(url, ws.wrkScript, WARM_UP_SECONDS, LOAD_CPUS);
  const max = await maxHttp(ws, port, endpoints, seconds);
  const pairedCeiling = ceiling === undefined ? undefined : await maxHttp(ws, portOf(ceiling, 'http'), ceiling, seconds);
  const half = await withServiceErrors(endpoints, () =>
    runH2load({
      url,
      dataFile: ws.bodyFile,
      headers: ['content-type: application/json'],
      h1: true,
      clients: LATENCY_HTTP_CLIENTS,
      streams: 1,
      seconds,
      rpsPerClient: perClient(max.reqPerSec / 2, LATENCY_HTTP_CLIENTS),
      logFile: join(ws.dir, `${tag}-http-half.tsv`),
      cpus: LOAD_CPUS,
    }),
  );
  await probeHttp(port);
  return { max, half, ...(pairedCeiling === undefined ? {} : { pairedCeiling }) };
}

function grpcLoad(ws: Workspace, port: number) {
  return {
    url: `http://127.0.0.1:${port}${GRPC_PATH}`,
    dataFile: ws.grpcFrameFile,
    headers: GRPC_HEADERS,
    h1: false,
    clients: GRPC_CLIENTS,
    streams: GRPC_STREAMS,
    cpus: LOAD_CPUS,
  };
}

function maxGrpc(ws: Workspace, port: number, endpoints: Endpoints, seconds: number, logFile: string): Promise<Measurement> {
  return withServiceErrors(endpoints, () => withCpu(endpoints, seconds, () => runH2load({ ...grpcLoad(ws, port), seconds, logFile })));
}

async function measureGrpc(ws: Workspace, port: number, endpoints: Endpoints, seconds: number, tag: string, ceiling?: Endpoints): Promise<TargetRuns> {
  const base = grpcLoad(ws, port);
  await probeGrpc(port, ws.grpcFrame);
  await runH2load({ ...base, seconds: GRPC_WARM_UP_SECONDS });
  const max = await maxGrpc(ws, port, endpoints, seconds, join(ws.dir, `${tag}-grpc-max.tsv`));
  const pairedCeiling =
    ceiling === undefined ? undefined : await maxGrpc(ws, portOf(ceiling, 'grpc'), ceiling, seconds, join(ws.dir, `${tag}-grpc-ceiling.tsv`));
  const half = await withServiceErrors(endpoints, () =>
    runH2load({
      ...base,
      clients: LATENCY_GRPC_CLIENTS,
      streams: LATENCY_GRPC_STREAMS,
      seconds,
      rpsPerClient: perClient(max.reqPerSec / 2, LATENCY_GRPC_CLIENTS),
      logFile: join(ws.dir, `${tag}-grpc-half.tsv`),
    }),
  );
  await probeGrpc(port, ws.grpcFrame);
  return { max, half, ...(pairedCeiling === undefined ? {} : { pairedCeiling }) };
}

function portOf(endpoints: Endpoints, protocol: Protocol): number {
  const port = endpoints[protocol];
  if (port === undefined) throw new Error(`target has no ${protocol} endpoint`);
  return port;
}

/**
 * `ceiling`: the endpoints of a running, warm ceiling server, measured again right after this
 * target's maximum-rate run, so the ratio compares two runs seconds apart (the host's speed
 * drifts within minutes).
 */
export async function measure(ws: Workspace, protocol: Protocol, endpoints: Endpoints, seconds: number, tag: string, ceiling?: Endpoints): Promise<TargetRuns> {
  const port = portOf(endpoints, protocol);
  return protocol === 'http' ? measureHttp(ws, port, endpoints, seconds, tag, ceiling) : measureGrpc(ws, port, endpoints, seconds, tag, ceiling);
}
