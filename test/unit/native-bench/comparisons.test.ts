import t from 'tap';
import { comparedRows, peerComparison } from '../../../native-bench/comparisons.js';
import type { Measurement } from '../../../native-bench/measurement.js';
import type { Row } from '../../../native-bench/report.js';

const row = (id: string, reqPerSec: number, roundsCpuUsPerRequest: number[]): Row => ({
  id,
  targetId: id[0] ?? '',
  target: `target ${id}`,
  protocol: id.endsWith('grpc') ? 'grpc' : 'http',
  status: 'measured',
  ceilingId: 'a-http',
  max: { command: 'test', reqPerSec, p50Us: 1, p99Us: 2, status200: null, status429: null, errors: 0, errorDetail: {} } satisfies Measurement,
  roundsCpuUsPerRequest,
});

t.test('the service’s /json is set against the peer: times its rate, and each one’s median CPU per request', async (t) => {
  const rows = [row('a-http', 150_000, [7]), row('d-http', 100_000, [9, 10, 11]), row('p-http', 40_000, [24, 25, 30])];
  t.equal(
    peerComparison(rows),
    "d-http (target d-http) / p-http (target p-http): 2.50 times the peer's max req/s; CPU per request 10.0 us against the peer's 25.0 us (cpu ratio 2.50, the peer's / the service's)",
  );
});

t.test('without both rows measured there is no peer line', async (t) => {
  t.equal(peerComparison([row('a-http', 150_000, [7]), row('p-http', 40_000, [25])]), undefined, 'no service row (--targets a,p)');
  t.equal(peerComparison([row('d-http', 100_000, [10])]), undefined, 'no peer row');
  t.match(peerComparison([row('d-http', 100_000, []), row('p-http', 40_000, [25])]), /2\.50 times the peer's max req\/s; CPU per request not measured$/);
});

t.test('the algorithm rows are still set against the fixed window, per protocol', async (t) => {
  const rows = [row('d-http', 100_000, [10]), row('g-http', 95_000, [10.5]), row('d-grpc', 30_000, [30]), row('g-grpc', 30_000, [30])];
  t.same(comparedRows(rows), [
    'g-http (target g-http) / d-http: 0.95 of its max req/s, 0.95 of its CPU per request (goal at least 0.9)',
    'g-grpc (target g-grpc) / d-grpc: 1.00 of its max req/s, 1.00 of its CPU per request (goal at least 0.9)',
  ]);
});

t.test('the algorithm rows are also set against the fixed window through their paired ceilings, which the host’s drift between rounds does not move', async (t) => {
  // The fixed window's median round ran while the host was fast, the token bucket's while it was slow.
  const fixed = { ...row('d-grpc', 20_000, [50]), ratio: 0.97, cpuRatio: 0.94 };
  const bucket = { ...row('h-grpc', 12_000, [80]), ratio: 0.98, cpuRatio: 0.95 };
  t.same(comparedRows([fixed, bucket]), [
    'h-grpc (target h-grpc) / d-grpc: 0.60 of its max req/s, 0.63 of its CPU per request; against their paired ceilings 1.01 of its ratio, 1.01 of its cpu ratio (goal at least 0.9)',
  ]);
  const noCpu = { ...bucket, cpuRatio: undefined };
  t.match(comparedRows([fixed, noCpu])[0], /; against their paired ceilings 1\.01 of its ratio \(goal at least 0\.9\)$/, 'a row without a cpu ratio gives the throughput alone');
});
