/**
 * The two measurements of one target and protocol: maximum rate (HTTP: wrk; gRPC: h2load),
 * then a fixed rate of half that maximum (h2load `--rps`, per-request log). Each is preceded
 * by a probe that checks a real answer, and for the service the debug server's error counters
 * are read around each run.
 */
import { join } from 'node:path';
import { readStat } from '../bench/service-process.js';
import { GRPC_CLIENTS, GRPC_STREAMS, LATENCY_GRPC_CLIENTS, LATENCY_GRPC_STREAMS, LATENCY_HTTP_CLIENTS, LOAD_CPUS, WARM_UP_SECONDS } from './fairness.js';
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

export interface PairOfRuns {
  max: Measurement;
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
  for (const name of SERVICE_ERROR_STATS) sum += await readStat(endpoints.debug, name);
  return sum;
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

async function measureHttp(ws: Workspace, port: number, endpoints: Endpoints, seconds: number, tag: string): Promise<PairOfRuns> {
  const url = `http://127.0.0.1:${port}/json`;
  await probeHttp(port);
  await runWrk(url, ws.wrkScript, Math.min(WARM_UP_SECONDS, seconds), LOAD_CPUS);
  const max = await withServiceErrors(endpoints, () => runWrk(url, ws.wrkScript, seconds, LOAD_CPUS));
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
  return { max, half };
}

async function measureGrpc(ws: Workspace, port: number, endpoints: Endpoints, seconds: number, tag: string): Promise<PairOfRuns> {
  const base = {
    url: `http://127.0.0.1:${port}${GRPC_PATH}`,
    dataFile: ws.grpcFrameFile,
    headers: GRPC_HEADERS,
    h1: false,
    clients: GRPC_CLIENTS,
    streams: GRPC_STREAMS,
    cpus: LOAD_CPUS,
  };
  await probeGrpc(port, ws.grpcFrame);
  await runH2load({ ...base, seconds: Math.min(WARM_UP_SECONDS, seconds) });
  const max = await withServiceErrors(endpoints, () => runH2load({ ...base, seconds, logFile: join(ws.dir, `${tag}-grpc-max.tsv`) }));
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
  return { max, half };
}

export function measure(ws: Workspace, protocol: Protocol, endpoints: Endpoints, seconds: number, tag: string): Promise<PairOfRuns> {
  const port = endpoints[protocol];
  if (port === undefined) return Promise.reject(new Error(`target has no ${protocol} endpoint`));
  return protocol === 'http' ? measureHttp(ws, port, endpoints, seconds, tag) : measureGrpc(ws, port, endpoints, seconds, tag);
}
