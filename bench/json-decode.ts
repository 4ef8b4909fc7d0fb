/**
 * `npm run bench:json`: what decoding a /json body costs on the fast path (json-fast-path.ts)
 * and in the full decoder (JSON.parse and the validating walk), and JSON.parse alone (what the
 * bare uWS ceiling does), in one process, interleaved, best and median of 7 runs per body.
 */
import { BENCH_BODY } from './bench-fixture.js';
import { decodeJsonRequest, parseRateLimitRequestJson } from '../src/transports/http/json-codec-decode.js';

const bodies: Array<[string, string]> = [
  ['bench body (1 descriptor, 2 entries)', BENCH_BODY],
  [
    '4 descriptors, 3 entries each',
    JSON.stringify({
      domain: 'edge',
      descriptors: Array.from({ length: 4 }, (_, d) => ({
        entries: [
          { key: 'remote_address', value: `10.0.0.${d}` },
          { key: 'path', value: `/api/v1/items/${d}` },
          { key: 'method', value: 'GET' },
        ],
      })),
    }),
  ],
];

let sink = 0;
function timePerCall(fn: () => number, calls: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink += fn();
  return Number(process.hrtime.bigint() - start) / calls;
}

const decoders: Array<[string, (body: string) => number]> = [
  ['JSON.parse only (the ceiling)', (body) => (JSON.parse(body) as { domain: string }).domain.length],
  ['full decoder', (body) => (decodeJsonRequest(body) as { domain: string }).domain.length],
  ['fast path (the service)', (body) => (parseRateLimitRequestJson(body) as { domain: string }).domain.length],
];

for (const [what, body] of bodies) {
  console.log(`\n${what}: ${body.length} characters`);
  const runs = new Map<string, number[]>(decoders.map(([name]) => [name, []]));
  for (const [, decode] of decoders) timePerCall(() => decode(body), 200_000);
  for (let round = 0; round < 7; round++) {
    for (const [name, decode] of decoders) runs.get(name)!.push(timePerCall(() => decode(body), 300_000));
  }
  for (const [name] of decoders) {
    const sorted = [...runs.get(name)!].sort((a, b) => a - b);
    console.log(`  ${name.padEnd(32)} best ${sorted[0]!.toFixed(0).padStart(5)} ns   median ${sorted[3]!.toFixed(0).padStart(5)} ns`);
  }
}
if (sink === 0) console.log('');
