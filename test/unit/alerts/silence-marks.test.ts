/**
 * Which silences an alert's labels match, from the index of compiled silences and each alert's
 * mark: the same answer as trying every silence, found by anchor or by version, and brought up
 * to date as silences come and go.
 */
import t from 'tap';
import type { Alert, SilenceMatcher } from '../../../src/alerts/model.js';
import { SilenceIndex } from '../../../src/alerts/silence-index.js';
import { SilenceMarker } from '../../../src/alerts/silence-marker.js';
import { compileMatchers } from '../../../src/alerts/silence-store.js';

const alert = (fingerprint: string, labels: Record<string, string>): Alert => ({ fingerprint, labels, annotations: {}, startsAt: 0, endsAt: 1, updatedAt: 0, generatorURL: '', timeout: false });

function add(index: SilenceIndex, id: string, matchers: SilenceMatcher[]): void {
  const compiled = compileMatchers(matchers);
  if (compiled === undefined) throw new Error(`${id} does not compile`);
  index.add(id, compiled);
}

const SILENCES: Array<[string, SilenceMatcher[]]> = [
  ['by-name', [{ name: 'alertname', type: '=', value: 'DiskFull' }]],
  ['by-list', [{ name: 'instance', type: '=~', value: 'host-1|host-2' }]],
  ['by-pattern', [{ name: 'instance', type: '=~', value: 'host-1.*' }]],
  ['not-prod', [{ name: 'env', type: '!=', value: 'prod' }]],
  ['list-and-name', [{ name: 'instance', type: '=~', value: 'host-2|host-3' }, { name: 'alertname', type: '=', value: 'CPU' }]],
  ['empty-allowed', [{ name: 'team', type: '=~', value: 'a|' }, { name: 'alertname', type: '=~', value: 'Disk.*' }]],
  ['longest-prefix', [{ name: 'alertname', type: '=~', value: 'C.*' }, { name: 'instance', type: '=~', value: 'host-[23]' }]],
  ['no-prefix', [{ name: 'instance', type: '=~', value: '.*-1.*' }]],
];
const ALERTS = [
  alert('a', { alertname: 'DiskFull', instance: 'host-1', env: 'prod' }),
  alert('b', { alertname: 'CPU', instance: 'host-2', env: 'prod' }),
  alert('c', { alertname: 'CPU', instance: 'host-3', env: 'dev' }),
  alert('d', { alertname: 'DiskSlow', instance: 'host-10', env: 'prod', team: 'a' }),
  alert('e', { alertname: 'Mem', instance: 'db-1', env: 'prod', team: 'b' }),
];

/** What trying every silence in turn gives. */
function expected(labels: Record<string, string>, silences = SILENCES): string[] {
  return silences.filter(([, matchers]) => compileMatchers(matchers)?.every((m) => m.matches(labels))).map(([id]) => id).sort();
}

t.test('an alert is matched by the silences that match it, whether they are looked up by anchor or tried one by one', async (t) => {
  for (const copies of [1, 20]) {
    // Twenty copies of each: past the count below which silences are simply tried in turn.
    const silences = SILENCES.flatMap(([id, matchers]) => Array.from({ length: copies }, (_, n) => [`${id}-${n}`, matchers] as [string, SilenceMatcher[]]));
    const index = new SilenceIndex();
    for (const [id, matchers] of silences) add(index, id, matchers);
    for (const { labels } of ALERTS) t.same(index.matching(labels, 0).sort(), expected(labels, silences), `${copies} of each: ${JSON.stringify(labels)}`);
  }
});

t.test('a mark is worked out once, then takes only the silences added since, and drops those removed', async (t) => {
  const index = new SilenceIndex();
  const marker = new SilenceMarker(index);
  for (const [id, matchers] of SILENCES.slice(0, 3)) add(index, id, matchers);
  const [a, b] = ALERTS as [Alert, Alert];
  t.same(marker.matching(a), ['by-list', 'by-name', 'by-pattern']);
  t.notOk(marker.isStale(a.fingerprint), 'marked, and current');
  t.ok(marker.isStale(b.fingerprint), 'another alert is not marked yet');

  add(index, 'also-disk', [{ name: 'alertname', type: '=~', value: 'Disk.*' }]);
  add(index, 'elsewhere', [{ name: 'instance', type: '=', value: 'host-9' }]);
  t.ok(marker.isStale(a.fingerprint), 'silences added: the mark is behind');
  t.same(marker.matching(a), ['also-disk', 'by-list', 'by-name', 'by-pattern'], 'the new silence that matches is in, sorted');

  index.remove('by-name');
  t.same(marker.matching(a), ['also-disk', 'by-list', 'by-pattern'], 'a removed silence leaves the mark');
  marker.forget(a.fingerprint);
  t.ok(marker.isStale(a.fingerprint), 'a forgotten alert starts again');
  t.same(marker.matching(a), ['also-disk', 'by-list', 'by-pattern']);
});
