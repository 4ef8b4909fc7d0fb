/**
 * sortedLabelNames orders label names by their UTF-8 bytes, as Go compares strings, whether a
 * set is small (sorted by insertion) or large (Array#sort), and whatever the names' scripts.
 */
import t from 'tap';
import { sortedLabelNames } from '../../../src/alerts/fingerprint.js';

const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Name pieces that sort differently by UTF-16 units and by code points, and plain ones. */
const PIECES = ['a', 'b', 'job', 'instance', '_', 'Z', '\u00e9', '\uffee', '\ud83d\ude00', '\ud800\udc00', '\ue000', 'zz'];

function randomName(next: () => number): string {
  let name = '';
  const length = 1 + Math.floor(next() * 3);
  for (let i = 0; i < length; i++) name += PIECES[Math.floor(next() * PIECES.length)] as string;
  return name;
}

t.test('every size, from none to past the insertion limit, in byte order', async (t) => {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let size = 0; size <= 40; size++) {
    for (let round = 0; round < 20; round++) {
      const labels: Record<string, string> = {};
      while (Object.keys(labels).length < size) labels[randomName(next)] = 'v';
      const expected = Object.keys(labels).sort(byUtf8);
      const sorted = sortedLabelNames(labels);
      if (JSON.stringify(sorted) !== JSON.stringify(expected)) {
        t.same(sorted, expected, `size ${size}`);
        return;
      }
    }
  }
  t.pass('820 label sets of 0-40 names sorted as their UTF-8 bytes');
});

t.test('names already in order, in reverse, and one out of place', async (t) => {
  t.same(sortedLabelNames({ alertname: '', instance: '', job: '', severity: '' }), ['alertname', 'instance', 'job', 'severity']);
  t.same(sortedLabelNames({ severity: '', job: '', instance: '', alertname: '' }), ['alertname', 'instance', 'job', 'severity']);
  t.same(sortedLabelNames({ alertname: '', job: '', instance: '', severity: '' }), ['alertname', 'instance', 'job', 'severity']);
  t.same(sortedLabelNames({ '\ufff0': '', '\ud83d\ude00': '' }), ['\ufff0', '\ud83d\ude00'], 'U+FFF0 before U+1F600, though its UTF-16 unit is larger');
});
