/**
 * `npm run native-bench:observability [-- --duration 8 --rounds 3]`: what statistics and tracing
 * cost the decision path. One fresh service per variant on CPU 0 (HTTP on the main thread, as
 * the main table), wrk (`/json`) and h2load (gRPC) on CPU 1, every variant measured in each round
 * so the host's drift hits them alike:
 *   no stats:       DISABLE_STATS=true, tracing off (the baseline)
 *   stats:          statistics flushed every second over TCP to a statsd listener in this process
 *   tracing 0.01:   TRACING_SAMPLING_RATE=0.01 to an OTLP receiver in this process (stats off)
 *   tracing 1:      every decision traced (stats off)
 * Each row gives max req/s and the service's CPU per request (all threads, /proc), the ratio of
 * both to the baseline, and for tracing the added CPU per decision in microseconds.
 */
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_BODY } from '../bench/bench-request.js';
import { startBenchService, writeBenchConfig } from '../bench/bench-fixture.js';
import { startOtlpReceiver } from '../test/support/otlp-receiver.js';
import { startStatsdListener } from '../test/support/statsd-listener.js';
import { Teardowns } from '../test/support/teardown.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import { GRPC_CLIENTS, GRPC_STREAMS, LOAD_CPUS, SERVER_CPUS, WARM_UP_SECONDS } from './fairness.js';
import { GRPC_HEADERS, GRPC_PATH, grpcRequestFrame } from './grpc-frame.js';
import { runH2load } from './h2load.js';
import { withCpu } from './measure.js';
import type { Measurement } from './measurement.js';
import { probeGrpc, probeHttp } from './probes.js';
import { ensureLoadTools } from './tools.js';
import { runWrk, writeWrkScript } from './wrk.js';

type Protocol = 'http' | 'grpc';
interface Variant {
  name: string;
  env: Record<string, string>;
}

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } } });
  const seconds = Number(values.duration);
  const rounds = Number(values.rounds);
  await ensureLoadTools();
  const teardowns = new Teardowns();
  const dir = await makeTempDir('native-bench-observability-');
  const config = await writeBenchConfig();
  try {
    const statsd = await startStatsdListener(teardowns, 'tcp');
    const otlp = await startOtlpReceiver(teardowns, 'http');
    const tracing = (rate: string) => ({ TRACING_ENABLED: 'true', TRACING_SAMPLING_RATE: rate, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint });
    const variants: Variant[] = [
      { name: 'no stats', env: { DISABLE_STATS: 'true' } },
      { name: 'stats', env: { DISABLE_STATS: 'false', METRICSD_HOST: '127.0.0.1', METRICSD_PORT: String(statsd.port), STATS_FLUSH_INTERVAL: '1s' } },
      { name: 'tracing 0.01', env: { DISABLE_STATS: 'true', ...tracing('0.01') } },
      { name: 'tracing 1', env: { DISABLE_STATS: 'true', ...tracing('1') } },
    ];
    const wrkScript = await writeWrkScript(dir.path, BENCH_BODY);
    const frame = grpcRequestFrame();
    const frameFile = join(dir.path, 'grpc-request.bin');
    await writeFile(frameFile, frame);
    console.log(`service on CPU ${SERVER_CPUS} (HTTP_WORKERS=0), load on CPU ${LOAD_CPUS}, ${seconds} s per run, ${rounds} rounds; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

    const runs = new Map<string, Measurement[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const variant of variants) {
        const service = await startBenchService({ ...config.env, HTTP_WORKERS: '0', ...variant.env }, SERVER_CPUS);
        const endpoints = { pid: service.child.pid };
        try {
          for (const protocol of ['http', 'grpc'] as const) {
            const run = async (duration: number) =>
              protocol === 'http'
                ? runWrk(`${service.baseUrl}/json`, wrkScript, duration, LOAD_CPUS)
                : runH2load({ url: `http://127.0.0.1:${service.grpcTarget}${GRPC_PATH}`, dataFile: frameFile, headers: GRPC_HEADERS, h1: false, clients: GRPC_CLIENTS, streams: GRPC_STREAMS, seconds: duration, cpus: LOAD_CPUS });
            if (protocol === 'http') await probeHttp(service.httpPort as number);
            else await probeGrpc(Number(service.grpcTarget), frame);
            await run(WARM_UP_SECONDS);
            const m = await withCpu(endpoints, seconds, () => run(seconds));
            if (m.errors > 0) throw new Error(`${variant.name} ${protocol}: ${m.errors} errors (${JSON.stringify(m.errorDetail)})`);
            const key = `${variant.name}|${protocol}`;
            runs.set(key, [...(runs.get(key) ?? []), m]);
            console.log(`round ${round} ${variant.name.padEnd(13)} ${protocol.padEnd(4)} ${Math.round(m.reqPerSec)} req/s  cpu ${m.cpuUsPerRequest?.toFixed(2)} us/req`);
          }
        } finally {
          await service.stop();
        }
      }
    }

    const figure = (variant: string, protocol: Protocol, pick: (m: Measurement) => number | undefined) => median((runs.get(`${variant}|${protocol}`) ?? []).map((m) => pick(m) ?? NaN));
    console.log('');
    console.log(`median of ${rounds} rounds`);
    console.log('| variant | protocol | req/s | ratio to no stats | CPU us/req | CPU ratio (no stats / this) | added CPU us per decision |');
    console.log('|---|---|---|---|---|---|---|');
    for (const protocol of ['http', 'grpc'] as const) {
      const baseRate = figure('no stats', protocol, (m) => m.reqPerSec);
      const baseCpu = figure('no stats', protocol, (m) => m.cpuUsPerRequest);
      for (const variant of variants) {
        const rate = figure(variant.name, protocol, (m) => m.reqPerSec);
        const cpu = figure(variant.name, protocol, (m) => m.cpuUsPerRequest);
        console.log(`| ${variant.name} | ${protocol === 'http' ? '/json' : 'gRPC'} | ${Math.round(rate)} | ${(rate / baseRate).toFixed(3)} | ${cpu.toFixed(2)} | ${(baseCpu / cpu).toFixed(3)} | ${(cpu - baseCpu).toFixed(2)} |`);
      }
    }
    console.log(`\nstatsd listener received ${statsd.lines.length} lines; OTLP receiver ${otlp.spans.length} spans in ${otlp.requests} exports`);
  } finally {
    await teardowns.run();
    await config.remove();
    await dir.remove();
  }
}

await main();
