import t from 'tap';
import type { Measurement } from '../../../native-bench/measurement.js';
import { fillRatios, medianRows, type Row } from '../../../native-bench/report.js';

const run = (reqPerSec: number, cpuUsPerRequest: number): Measurement => ({
  command: 'test', reqPerSec, p50Us: 1, p99Us: 2, status200: null, status429: null, errors: 0, errorDetail: {}, cpuUsPerRequest,
});

const row = (id: string, ceilingId: string, max: Measurement, pairedCeiling?: Measurement): Row => ({
  id, targetId: id[0] ?? '', target: id, protocol: 'grpc', status: 'measured', ceilingId, max, ...(pairedCeiling === undefined ? {} : { pairedCeiling }),
});

t.test('a service row is compared with the ceiling run paired with it, round by round', async (t) => {
  // The host slows down between the ceiling's own run and the service's: unpaired, the service
  // looks at 0.5-0.6 of the ceiling; paired with the runs right after it, at 0.9.
  const rounds = [
    [row('b-grpc', 'b-grpc', run(10_000, 80)), row('d-grpc', 'b-grpc', run(5_400, 150), run(6_000, 135))],
    [row('b-grpc', 'b-grpc', run(12_000, 70)), row('d-grpc', 'b-grpc', run(6_300, 130), run(7_000, 117))],
    [row('b-grpc', 'b-grpc', run(11_000, 75)), row('d-grpc', 'b-grpc', run(4_500, 180), run(5_000, 162))],
  ];
  const rows = medianRows(rounds);
  fillRatios(rows);
  const service = rows.find((r) => r.id === 'd-grpc')!;
  t.same(service.roundsReqPerSec, [5_400, 6_300, 4_500]);
  t.same(service.roundsCeilingReqPerSec, [6_000, 7_000, 5_000]);
  t.same(service.roundRatios, [0.9, 0.9, 0.9]);
  t.equal(service.ratio, 0.9);
  t.equal(service.cpuRatio, 0.9);
  t.equal(service.max?.reqPerSec, 5_400, 'the row shows its median round');
  t.equal(service.ratioOfMedians, 5_400 / 11_000);
  const ceiling = rows.find((r) => r.id === 'b-grpc')!;
  t.equal(ceiling.ratio, 1);
});

t.test('without paired runs the ceiling row of the same round is the reference', async (t) => {
  const rounds = [
    [row('a-http', 'a-http', run(50_000, 16)), row('d-http', 'a-http', run(40_000, 20))],
    [row('a-http', 'a-http', run(60_000, 15)), row('d-http', 'a-http', run(30_000, 30))],
    [row('a-http', 'a-http', run(40_000, 20)), row('d-http', 'a-http', run(36_000, 25))],
  ];
  const rows = medianRows(rounds);
  fillRatios(rows);
  const service = rows.find((r) => r.id === 'd-http')!;
  t.same(service.roundRatios, [0.8, 0.5, 0.9]);
  t.equal(service.ratio, 0.8);
  t.equal(service.roundsCeilingReqPerSec, undefined);
  t.equal(service.cpuRatio, 16 / 25, 'ratio of the median CPU times');
});

t.test('a failed round keeps the row failed, and the measured rounds still count', async (t) => {
  const failed: Row = { id: 'd-grpc', targetId: 'd', target: 'd', protocol: 'grpc', status: 'failed', ceilingId: 'b-grpc', note: 'did not start' };
  const rounds = [
    [row('b-grpc', 'b-grpc', run(10_000, 80)), row('d-grpc', 'b-grpc', run(9_000, 90), run(10_000, 81))],
    [row('b-grpc', 'b-grpc', run(10_000, 80)), failed],
  ];
  const rows = medianRows(rounds);
  fillRatios(rows);
  const service = rows.find((r) => r.id === 'd-grpc')!;
  t.equal(service.status, 'failed');
  t.equal(service.note, 'did not start');
  t.same(service.roundsReqPerSec, [9_000]);
  t.equal(service.ratio, 0.9);
});
