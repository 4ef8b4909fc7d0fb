import t from 'tap';
import { decide } from '../../../src/engine/accounting.js';
import { Code } from '../../../src/engine/response.js';
import { nearLimitThreshold } from '../../../src/engine/rule.js';
import { RuleStatsFactory, StatsStore } from '../../../src/observability/stats.js';

t.test('near-limit threshold is computed in float32 as upstream', async (t) => {
  t.equal(nearLimitThreshold(15, 0.8), 12);
  t.equal(nearLimitThreshold(8, 0.8), 6);
  t.equal(nearLimitThreshold(20, 0.8), 16);
  t.equal(nearLimitThreshold(10, 0.8), 8);
  t.equal(nearLimitThreshold(0, 0.8), 0);
});

// Every near/over/within worked example of upstream's test/redis/fixed_cache_impl_test.go.
const rows: Array<[limit: number, hits: number, after: number, code: Code, remaining: number, over: number, near: number, within: number]> = [
  [15, 1, 11, Code.OK, 4, 0, 0, 1],
  [15, 1, 13, Code.OK, 2, 0, 1, 1],
  [15, 1, 16, Code.OVER_LIMIT, 0, 1, 0, 0],
  [20, 3, 5, Code.OK, 15, 0, 0, 3],
  [8, 2, 7, Code.OK, 1, 0, 1, 2],
  [20, 3, 19, Code.OK, 1, 0, 3, 3],
  [20, 3, 22, Code.OVER_LIMIT, 0, 2, 1, 0],
  [20, 7, 22, Code.OVER_LIMIT, 0, 2, 4, 0],
  [10, 3, 30, Code.OVER_LIMIT, 0, 3, 0, 0],
  [10, 1, 5, Code.OK, 5, 0, 0, 1],
  [10, 1, 11, Code.OVER_LIMIT, 0, 1, 0, 0],
  [10, 0, 11, Code.OVER_LIMIT, 0, 0, 0, 0],
];

for (const [limit, hits, after, code, remaining, over, near, within] of rows) {
  t.test(`limit ${limit}, hits ${hits}, counter after ${after}`, async (t) => {
    const stats = new RuleStatsFactory(new StatsStore()).forKey('d.k');
    const outcome = decide(limit, nearLimitThreshold(limit, 0.8), hits, after, false, stats);
    t.same(outcome, { code, limitRemaining: remaining });
    t.equal(stats.overLimit.value, over, 'over_limit');
    t.equal(stats.nearLimit.value, near, 'near_limit');
    t.equal(stats.withinLimit.value, within, 'within_limit');
    t.equal(stats.shadowMode.value, 0, 'shadow_mode');
  });
}

t.test('a shadow rule answers OK but still counts over_limit and shadow_mode', async (t) => {
  const stats = new RuleStatsFactory(new StatsStore()).forKey('d.k');
  const threshold = nearLimitThreshold(20, 0.8);
  t.same(decide(20, threshold, 7, 22, true, stats), { code: Code.OK, limitRemaining: 0 });
  t.equal(stats.overLimit.value, 2);
  t.equal(stats.nearLimit.value, 4);
  t.equal(stats.shadowMode.value, 2, 'only the hits past the limit are shadowed when crossing');
  t.same(decide(20, threshold, 3, 25, true, stats), { code: Code.OK, limitRemaining: 0 });
  t.equal(stats.shadowMode.value, 5, 'every hit is shadowed once already over');
});
