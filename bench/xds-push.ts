/**
 * `npm run bench:xds [-- --pushes 20]`: how long a configuration pushed by an xDS server takes to
 * reach every HTTP thread and the gRPC front. A real ADS server (grpc-js, in this process) serves
 * the service as deployed (two HTTP threads); each push changes one limit, and the row measures
 * from the push to the service's ACK, and from the ACK to the moment fresh `/json` connections
 * (spread by the kernel over both HTTP threads) and a gRPC call all answer the new limit. Goal:
 * within 100 ms of the ACK.
 */
import { parseArgs } from 'node:util';
import { AdsServer } from '../test/support/ads-server.js';
import { firstLimit, RlsClient, toGrpcRequest } from '../test/support/grpc-client.js';
import { startProcess } from '../test/support/process-harness.js';

const { values } = parseArgs({ options: { pushes: { type: 'string', default: '20' } } });
const PUSHES = Number(values.pushes);
const MINUTE = 2;
const fooAt = (perMinute: number) => ({ name: 'foo', domain: 'foo', descriptors: [{ key: 'k1', value: 'v1', rateLimit: { unit: MINUTE, requestsPerUnit: perMinute } }] });
const ask = { domain: 'foo', descriptors: [{ entries: [{ key: 'k1', value: 'v1' }], hitsAddend: 0 }] };

const server = new AdsServer();
await server.listen();
const starting = startProcess(undefined, { CONFIG_TYPE: 'GRPC_XDS_SOTW', CONFIG_GRPC_XDS_SERVER_URL: `127.0.0.1:${server.port}`, HTTP_WORKERS: '2', LOG_LEVEL: 'warn' });
await server.requestCount(1);
server.push('0', [fooAt(1000)]);
const proc = await starting;
const grpc = new RlsClient(proc.grpcAddress);

async function everywhere(perMinute: number): Promise<boolean> {
  const viaJson = await Promise.all(Array.from({ length: 4 }, async () => (await proc.post(ask, { headers: { connection: 'close' } })).json?.statuses?.[0]?.currentLimit?.requestsPerUnit));
  const viaGrpc = firstLimit(await grpc.call(toGrpcRequest(ask)));
  return viaJson.every((limit) => limit === perMinute) && viaGrpc === perMinute;
}

const toAck: number[] = [];
const ackToEverywhere: number[] = [];
try {
  for (let i = 1; i <= PUSHES; i++) {
    const perMinute = 1000 + i;
    const seen = server.requests.length;
    const pushed = performance.now();
    server.push(String(i), [fooAt(perMinute)]);
    await server.requestCount(seen + 1);
    const acked = performance.now();
    while (!(await everywhere(perMinute))) await new Promise((resolve) => setTimeout(resolve, 1));
    toAck.push(acked - pushed);
    ackToEverywhere.push(performance.now() - acked);
  }
  const row = (name: string, times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.log(`${name.padEnd(44)} ${median.toFixed(1).padStart(8)} ${(sorted[sorted.length - 1] ?? 0).toFixed(1).padStart(8)}`);
  };
  console.log(`${PUSHES} pushes, two HTTP threads and the gRPC front`);
  console.log(`${'ms'.padEnd(44)} ${'median'.padStart(8)} ${'slowest'.padStart(8)}`);
  row('push -> ACK (validated, published, in service)', toAck);
  row('ACK -> every HTTP thread and gRPC answer it', ackToEverywhere);
} finally {
  grpc.close();
  await proc.stop();
  await server.stop();
}
