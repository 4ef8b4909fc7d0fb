import t from 'tap';
import { FP_HI, FP_LO, fingerprint, fingerprintByCharCodes } from '../../../src/backends/shared-memory/fingerprint.js';

function fp(key: string): [number, number] {
  const out = new Int32Array(2);
  fingerprint(key, out);
  return [out[FP_HI] ?? 0, out[FP_LO] ?? 0];
}

t.test('both halves are odd, so never 0', async (t) => {
  let even = 0;
  for (const key of ['', 'a', 'ab', 'abc', 'x'.repeat(23), 'x'.repeat(24), 'x'.repeat(1000)]) {
    const [hi, lo] = fp(key);
    if ((hi & 1) === 0 || (lo & 1) === 0) even++;
  }
  t.equal(even, 0);
});

t.test('the native copy and charCodeAt paths agree for every length', async (t) => {
  const a = new Int32Array(2);
  const b = new Int32Array(2);
  let differ = 0;
  for (let length = 0; length <= 200; length++) {
    // Some units above 0xff; joined halves make cons strings, as key building does.
    const flat = Array.from({ length }, (_, i) => String.fromCharCode(i % 7 === 0 ? 0x4e00 + i : 0x61 + (i % 26))).join('');
    const key = flat.slice(0, length >> 1) + flat.slice(length >> 1);
    fingerprint(key, a);
    fingerprintByCharCodes(key, b);
    if (a[0] !== b[0] || a[1] !== b[1]) differ++;
  }
  const long = 'k'.repeat(40_000) + '_1700000000';
  fingerprint(long, a);
  fingerprintByCharCodes(long, b);
  if (a[0] !== b[0] || a[1] !== b[1]) differ++;
  t.equal(differ, 0);
});

t.test('200,000 similar keys get 200,000 distinct fingerprints', async (t) => {
  const seen = new Set<string>();
  const his = new Set<number>();
  for (let i = 0; i < 200_000; i++) {
    const [hi, lo] = fp(`ratelimit_domain_remote_address_10.0.${i >> 8}.${i & 255}_1700000040`);
    seen.add(`${hi}:${lo}`);
    his.add(hi);
  }
  t.equal(seen.size, 200_000);
  t.ok(his.size > 199_900, `fpHi alone nearly unique too (${200_000 - his.size} collisions in 31 bits)`);
});

t.test('keys differing only above Latin-1, or by one unit, differ', async (t) => {
  t.not(fp('key_é_1').join(), fp('key_ę_1').join());
  t.not(fp('key_😀_1').join(), fp('key_😁_1').join());
  t.not(fp('ab').join(), fp('ba').join());
  t.not(fp('a').join(), fp('a\u0000').join(), 'length is mixed in');
  const base = 'rl_domain_key_value_' + 'v'.repeat(40);
  t.not(fp(base + '_1').join(), fp(base + '_2').join());
});
