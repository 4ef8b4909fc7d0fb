import t from 'tap';
import { decimalText } from '../../../src/engine/index.js';

t.test('counts read as String() writes them', async (t) => {
  const values = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10_000, 99_999, 100_000, 100_001, 1_000_000, 1_000_000_000, 4294967295, 9_999_999_999];
  for (let digits = 1; digits <= 10; digits++) {
    values.push(10 ** digits - 1, 10 ** (digits - 1), 10 ** (digits - 1) + 1, 10 ** (digits - 1) * 5 + 7);
  }
  let seed = 12345;
  for (let i = 0; i < 5000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    values.push(seed, seed % 100_000, seed * 4 + (seed % 3));
  }
  const wrong = values.filter((n) => decimalText(n) !== String(n));
  t.same(wrong, [], `${values.length} values`);
});

t.test('anything but an integer in [0, 10^10) is String()', async (t) => {
  for (const n of [-1, -0.5, 0.5, 1.5, 123456.5, 10_000_000_000, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.equal(decimalText(n), String(n), String(n));
  }
});
