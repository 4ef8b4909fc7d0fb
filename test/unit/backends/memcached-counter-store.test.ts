/**
 * The memcached counter store against a real memcached: the requests decided in one event-loop
 * turn read each distinct key once, their increments go out as one command per key with the hits
 * added up, and every request's read and increment still count once in the value and in
 * upstream's statistics.
 */
import t from 'tap';
import { MemcachedCounterStore } from '../../../src/backends/memcached/memcached-counter-store.js';
import { Unit, type CounterIncrement } from '../../../src/engine/index.js';
import { StatsStore } from '../../../src/observability/stats.js';
import { waitFor } from '../../support/wait-for.js';
import { startMemcached } from '../../support/store-servers.js';

t.test("one turn's requests: one read and one increment per key, every hit counted", async (t) => {
  const memcached = await startMemcached(t);
  const stats = new StatsStore();
  const errors: Error[] = [];
  const store = new MemcachedCounterStore(
    { servers: [memcached.url], srv: '', srvRefreshMs: 0, srvResolver: '', connectionsPerServer: 1, timeoutMs: 2000, expirationJitterMaxSeconds: 0, tls: undefined },
    stats,
    (error) => errors.push(error),
  );
  t.teardown(() => store.close());
  const windowStart = Math.floor(Date.now() / 1000 / 3600) * 3600;
  const hit = (key: string): CounterIncrement => ({ key, hits: 1, unit: Unit.HOUR, windowStart });
  const commands = async () => {
    const s = await memcached.stats();
    return { gets: Number(s['cmd_get']), increments: Number(s['incr_hits']) + Number(s['incr_misses']) };
  };
  // Held already, so each increment command is one of memcached's incr_hits (a create is not counted there).
  await memcached.set('busy', '0', 3600);
  await memcached.set('quiet', '0', 3600);
  const before = await commands();

  // Ten requests for one key and two for another, decided in the same turn (no await between).
  const answers = await Promise.all([...Array.from({ length: 10 }, () => store.increment([hit('busy')])), store.increment([hit('quiet')]), store.increment([hit('quiet')])]);
  t.same(answers.flat(), [...Array<number>(10).fill(1), 1, 1], 'each read the value before any increment, plus its own hit');
  t.equal((await commands()).gets - before.gets, 2, 'memcached was asked for each key once, not once per request');
  await waitFor('both keys counted', async () => ((await memcached.get('busy')) === '10' && (await memcached.get('quiet')) === '2' ? true : undefined), 5000);
  t.equal((await commands()).increments - before.increments, 2, 'and received one increment per key');
  t.equal(stats.counter('ratelimit.memcache.multiget.__code=success').value, 12, "upstream's statistics still count each request's multi-get");
  t.equal(stats.counter('ratelimit.memcache.keys_requested').value, 12);
  t.equal(stats.counter('ratelimit.memcache.keys_found').value, 12);
  t.equal(stats.counter('ratelimit.memcache.increment.__code=success').value, 12, "upstream's statistic still counts each request's increment");
  t.same(errors, []);

  // A later turn counts on from there.
  t.same(await store.increment([hit('busy')]), [11]);
  await waitFor('the next turn counted', async () => ((await memcached.get('busy')) === '11' ? true : undefined), 5000);
});
