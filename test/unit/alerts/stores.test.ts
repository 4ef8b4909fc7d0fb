/** The alert merge rules and the silence update rules real clients rely on (Prometheus re-sends, amtool silence update/import). */
import t from 'tap';
import { AlertStore } from '../../../src/alerts/alert-store.js';
import type { Alert, SilenceMatcher } from '../../../src/alerts/model.js';
import { compileMatchers, SilenceStore, type SilenceRequest } from '../../../src/alerts/silence-store.js';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

function alert(over: Partial<Alert>): Alert {
  return { fingerprint: 'f', labels: { alertname: 'A' }, annotations: {}, startsAt: NOW, endsAt: NOW + 5 * MIN, updatedAt: NOW, generatorURL: '', timeout: true, ...over };
}

t.test('a re-posted label set merges when the intervals overlap, else replaces', async (t) => {
  const store = new AlertStore(0);
  store.put(alert({ annotations: { d: 'x' } }), NOW);
  const merged = store.put(alert({ startsAt: NOW + MIN, endsAt: NOW + 2 * MIN, updatedAt: NOW + MIN, timeout: false }), NOW + MIN);
  t.equal(merged.startsAt, NOW, 'the earliest start survives');
  t.equal(merged.endsAt, NOW + 2 * MIN, "the old end came from resolve_timeout, so the new one's wins");
  t.same(merged.annotations, {}, 'annotations replaced wholesale');
  const replaced = store.put(alert({ startsAt: NOW + 10 * MIN, endsAt: NOW + 20 * MIN, updatedAt: NOW + 10 * MIN }), NOW + 10 * MIN);
  t.equal(replaced.startsAt, NOW + 10 * MIN, 'no overlap: replaced');
});

t.test('an explicit later end survives a merge; a resolve keeps the latest resolve time', async (t) => {
  const store = new AlertStore(0);
  store.put(alert({ endsAt: NOW + 30 * MIN, timeout: false }), NOW);
  const kept = store.put(alert({ startsAt: NOW + MIN, endsAt: NOW + 10 * MIN, updatedAt: NOW + MIN, timeout: false }), NOW + MIN);
  t.equal(kept.endsAt, NOW + 30 * MIN, 'the older explicit end is later and stays');
  const resolved = store.put(alert({ startsAt: NOW + 2 * MIN, endsAt: NOW + 2 * MIN + 1, updatedAt: NOW + 3 * MIN }), NOW + 3 * MIN);
  t.equal(resolved.endsAt, NOW + 2 * MIN + 1, 'resolving: the given end');
});

t.test('a resolved alert is dropped once the retention after its end has passed, whatever was re-posted meanwhile', async (t) => {
  const store = new AlertStore(MIN);
  store.put(alert({ fingerprint: 'a', endsAt: NOW - 1 }), NOW);
  store.put(alert({ fingerprint: 'b' }), NOW);
  store.put(alert({ fingerprint: 'c', endsAt: NOW + MIN, timeout: false }), NOW);
  t.same(store.dropResolved(NOW), [], 'a resolved a moment ago: kept for the retention');
  t.same(store.dropResolved(NOW + MIN - 1), ['a'], 'dropped one retention after its end');
  // Re-posted with a later end: its first entry in the queue is stale.
  store.put(alert({ fingerprint: 'c', startsAt: NOW + MIN / 2, endsAt: NOW + 10 * MIN, updatedAt: NOW + MIN / 2, timeout: false }), NOW + MIN / 2);
  t.same(store.dropResolved(NOW + 2 * MIN), [], 'c now ends later: its earlier entry drops nothing');
  t.same(store.dropResolved(NOW + 6 * MIN), ['b'], 'b, left to resolve_timeout, drops one retention after');
  t.same(store.dropResolved(NOW + 11 * MIN), ['c']);
  t.equal(store.size, 0);
});

const MATCHERS: SilenceMatcher[] = [{ name: 'alertname', type: '=', value: 'A' }];
function request(over: Partial<SilenceRequest>): SilenceRequest {
  const matchers = over.matchers ?? MATCHERS;
  return { id: undefined, matchers, compiled: compileMatchers(matchers) ?? [], startsAt: NOW, endsAt: NOW + 60 * MIN, createdBy: 'me', comment: 'c', annotations: {}, ...over };
}

t.test('silences: created, updated in place when allowed, replaced (old expired) otherwise', async (t) => {
  const store = new SilenceStore({ maxSilences: 0, maxSilenceBytes: 0 });
  const created = store.set(request({ startsAt: NOW - MIN }), NOW);
  if (!created.ok) throw new Error('not created');
  t.equal(created.silence.startsAt, NOW, 'a start in the past is clamped to now');
  t.match(created.silence.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a UUID v4');
  const id = created.silence.id;

  const comment = store.set(request({ id, startsAt: NOW + 300, comment: 'new comment', endsAt: NOW + 90 * MIN }), NOW + MIN);
  t.match(comment, { ok: true, silence: { id, comment: 'new comment', endsAt: NOW + 90 * MIN }, expired: undefined }, 'active, same start second: in place');

  const moved = store.set(request({ id, startsAt: NOW + 5 * MIN }), NOW + 2 * MIN);
  t.ok(moved.ok && moved.silence.id !== id, 'a moved start of an active silence: a new silence');
  t.match(moved, { expired: { id, endsAt: NOW + 2 * MIN, updatedAt: NOW + 2 * MIN } }, 'the old one expires now');

  t.same(store.set(request({ id: '00000000-0000-4000-8000-000000000000' }), NOW), { ok: false, reason: 'not found' });
});

t.test('silences: a pending one may move; DELETE expires; limits hold', async (t) => {
  const store = new SilenceStore({ maxSilences: 1, maxSilenceBytes: 0 });
  const pending = store.set(request({ startsAt: NOW + 10 * MIN }), NOW);
  if (!pending.ok) throw new Error('not created');
  const id = pending.silence.id;
  const moved = store.set(request({ id, startsAt: NOW + 20 * MIN, endsAt: NOW + 80 * MIN }), NOW);
  t.match(moved, { ok: true, silence: { id, startsAt: NOW + 20 * MIN } }, 'pending: moved in place');
  t.match(store.set(request({ matchers: [{ name: 'x', type: '=', value: 'y' }] }), NOW), { ok: false, reason: 'invalid', message: 'exceeded maximum number of silences: 1 (limit: 1)' });
  const expired = store.expire(id, NOW + MIN);
  t.match(expired, { startsAt: NOW + MIN, endsAt: NOW + MIN }, 'a pending silence starts and ends now');
  t.equal(store.expire(id, NOW + 2 * MIN), 'unchanged', 'already expired: no change');
  t.equal(store.expire('nope', NOW), undefined);
  t.same(store.collect(NOW + MIN + 120 * 3_600_000, 120 * 3_600_000), [id], 'kept for the retention after its end');
});
