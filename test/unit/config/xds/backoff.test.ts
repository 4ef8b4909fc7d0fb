/** The xDS client's reconnect waits grow by the factor, stay within their bounds, and jitter between them. */
import t from 'tap';
import { backoffDelayMs } from '../../../../src/config/xds/backoff.js';

const policy = { initialMs: 100, maxMs: 1000, factor: 2, jitter: false };

t.test('waits grow by the factor up to the longest wait', async (t) => {
  t.same([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelayMs(policy, attempt)), [100, 200, 400, 800, 1000, 1000]);
});

t.test("upstream's default factor 0.5 keeps the wait at the initial interval", async (t) => {
  t.same([0, 1, 5].map((attempt) => backoffDelayMs({ ...policy, factor: 0.5 }, attempt)), [100, 100, 100]);
});

t.test('jitter draws between the initial interval and the computed wait', async (t) => {
  const jittered = { ...policy, jitter: true };
  t.equal(backoffDelayMs(jittered, 3, () => 0), 100);
  t.equal(backoffDelayMs(jittered, 3, () => 0.5), 450);
  t.equal(backoffDelayMs(jittered, 10, () => 0.99), 1000, 'still capped');
});
