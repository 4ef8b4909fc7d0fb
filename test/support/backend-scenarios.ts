/**
 * The counter-store scenarios (2: one hit, 3: a limit reached, 4 and 5: two keys, with and
 * without STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT, 9: CACHE_KEY_PREFIX) against a real counter
 * store (Redis or memcached), checked twice: the /json answers exactly (in-process service,
 * manual clock) and the counters inside the store itself (keys, values, TTLs), read through a
 * small StoreInspector.
 *
 *   const redis = await startRedis(t);
 *   await runStoreScenarios(t, { store: redisInspector(redis), env: { KVSTORE_URL: redis.url }, tag: 'tcp' });
 *
 * Every value of a request carries `tag`, so variants can share one server: each looks only at
 * the keys holding its own values. Memcached counts asynchronously (the increment follows the
 * answer), so each store check polls until the expected value is there or a deadline passes,
 * and the next request is sent only after that, which keeps every answer deterministic.
 */
import { createConnection } from 'node:net';
import type { Test } from 'tap';
import { BAD_REQUEST, ok, over, response, TEXT_PLAIN } from '../e2e/expect.js';
import { DEFAULT_NOW, startService, type Service } from './service-harness.js';
import { D, fixture, ruleStat } from './service-inputs.js';
import type { MemcachedServer, RedisCluster, RedisServer } from './store-servers.js';
import type { Teardown } from './teardown.js';

/** A counter as the store holds it: its value and remaining time to live, in seconds. */
export interface StoredCounter {
  value: number;
  ttl: number;
}

/** A read-only view into a counter store, plus a way to plant a counter. */
export interface StoreInspector {
  readonly kind: 'redis' | 'memcached';
  /**
   * memcached increments after answering: its counters must be read back after every request
   * (which also keeps the next answer exact). Redis has counted before it answers, so reading
   * at the turning points of a scenario shows all there is (and saves redis-cli runs).
   */
  readonly countsAfterAnswer: boolean;
  /** Keys matching a glob with `*` only, sorted. */
  keys(pattern: string): Promise<string[]>;
  /** Each key's counter, undefined where absent. Redis TTLs have millisecond precision. */
  read(keys: readonly string[]): Promise<Array<StoredCounter | undefined>>;
  /** Stores `value` under `key` with a TTL, as a counter the service will then increment. */
  seed(key: string, value: number, ttlSeconds: number): Promise<void>;
  /**
   * Called just before a request creates a SECOND counter (TTL 1 s), so that it can still be read
   * afterwards; memcached waits for its once-a-second clock tick (the counter lives until the next).
   */
  beforeShortLivedKey?(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Inspectors

/** The Lua that reads value and PTTL of every key in one round trip ('nil' for a missing value). */
const READ_SCRIPT =
  "local r = {} for i, k in ipairs(KEYS) do r[#r + 1] = redis.call('GET', k) or 'nil'; r[#r + 1] = redis.call('PTTL', k) end return r";

function parseRead(keys: readonly string[], output: string): Array<StoredCounter | undefined> {
  const fields = output.split('\n').map((line) => line.trim());
  if (fields.length !== keys.length * 2) throw new Error(`unexpected answer for ${keys.join(' ')}: ${JSON.stringify(output)}`);
  return keys.map((_, i) => {
    const value = fields[2 * i] as string;
    const pttl = Number(fields[2 * i + 1]);
    if (value === 'nil') return undefined;
    // PTTL -1: no expiry (reported as Infinity so any TTL bound fails).
    return { value: Number(value), ttl: pttl < 0 ? Infinity : pttl / 1000 };
  });
}

/** One Redis server (any of single, sentinel master, per-second server), read with redis-cli. */
export function redisInspector(server: Pick<RedisServer, 'cli' | 'keys'>): StoreInspector {
  return {
    kind: 'redis',
    countsAfterAnswer: false,
    keys: (pattern) => server.keys(pattern),
    async read(keys) {
      if (keys.length === 0) return [];
      return parseRead(keys, await server.cli('EVAL', READ_SCRIPT, String(keys.length), ...keys));
    },
    async seed(key, value, ttlSeconds) {
      await server.cli('SET', key, String(value), 'EX', String(ttlSeconds));
    },
  };
}

/** A Redis Cluster: keys on every node; one read per key (a script may touch one slot only). */
export function redisClusterInspector(cluster: RedisCluster): StoreInspector {
  return {
    kind: 'redis',
    countsAfterAnswer: false,
    keys: (pattern) => cluster.keys(pattern),
    async read(keys) {
      const reads = await Promise.all(keys.map(async (key) => parseRead([key], await cluster.cli('EVAL', READ_SCRIPT, '1', key))));
      return reads.map((r) => r[0]);
    },
    async seed(key, value, ttlSeconds) {
      await cluster.cli('SET', key, String(value), 'EX', String(ttlSeconds));
    },
  };
}

/**
 * Redis servers of which each key must live in exactly one, the one `route` names (the main and
 * per-second servers of KVSTORE_PERSECOND): a read that finds a key elsewhere throws.
 */
export function splitRedisInspector(servers: Array<Pick<RedisServer, 'cli' | 'keys'>>, route: (key: string) => number): StoreInspector {
  const each = servers.map(redisInspector);
  return {
    kind: 'redis',
    countsAfterAnswer: false,
    keys: async (pattern) => (await Promise.all(each.map((s) => s.keys(pattern)))).flat().sort(),
    async read(keys) {
      const all = await Promise.all(each.map((s) => s.read(keys)));
      return keys.map((key, i) => {
        const holders = all.flatMap((reads, server) => (reads[i] === undefined ? [] : [server]));
        if (holders.some((server) => server !== route(key))) throw new Error(`${key} is in server(s) ${holders.join(', ')}, expected only ${route(key)}`);
        return all[route(key)]?.[i];
      });
    },
    seed: (key, value, ttl) => (each[route(key)] as StoreInspector).seed(key, value, ttl),
  };
}

/**
 * Every live key of one memcached (URL-decoded). The LRU crawler walks the LRU segments while
 * items move between them, so one `metadump` can miss a key just written: two are joined.
 */
export async function memcachedKeys(server: Pick<MemcachedServer, 'host' | 'plainPort'>): Promise<string[]> {
  const first = await metadump(server);
  return [...new Set([...first, ...(await metadump(server))])];
}

/** `lru_crawler metadump all`, retried while the crawler is busy. */
async function metadump(server: Pick<MemcachedServer, 'host' | 'plainPort'>): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ host: server.host, port: server.plainPort });
      let text = '';
      socket.setTimeout(5000, () => {
        socket.destroy();
        reject(new Error(`metadump on port ${server.plainPort} timed out; got ${JSON.stringify(text)}`));
      });
      socket.once('error', reject);
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (text.endsWith('END\r\n') || /^(BUSY|ERROR|CLIENT_ERROR|SERVER_ERROR)[^\n]*\r\n$/.test(text)) {
          socket.end();
          resolve(text);
        }
      });
      socket.write('lru_crawler metadump all\r\n');
    });
    if (answer.endsWith('END\r\n')) {
      return answer
        .split('\n')
        .filter((line) => line.startsWith('key='))
        .map((line) => decodeURIComponent((line.split(' ')[0] as string).slice(4)));
    }
    if (!answer.startsWith('BUSY') || Date.now() > deadline) throw new Error(`metadump on port ${server.plainPort}: ${answer.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

/**
 * memcached nodes (one or more, in OBJCACHE_HOST_PORT order). A key must be on exactly one node,
 * and with `expectNode` on the node it names (the service's server choice).
 */
export function memcachedInspector(nodes: MemcachedServer[], expectNode?: (key: string) => number): StoreInspector {
  return {
    kind: 'memcached',
    countsAfterAnswer: true,
    async keys(pattern) {
      const re = globToRegExp(pattern);
      return (await Promise.all(nodes.map(memcachedKeys))).flat().filter((key) => re.test(key)).sort();
    },
    async read(keys) {
      return Promise.all(
        keys.map(async (key) => {
          const items = await Promise.all(nodes.map((node) => node.getWithTtl(key)));
          const holders = items.flatMap((item, i) => (item === undefined ? [] : [i]));
          if (holders.length === 0) return undefined;
          if (holders.length > 1) throw new Error(`${key} is on nodes ${holders.join(' and ')}`);
          const at = holders[0] as number;
          if (expectNode !== undefined && expectNode(key) !== at) throw new Error(`${key} is on node ${at}, expected node ${expectNode(key)}`);
          const item = items[at] as { value: string; ttl: number };
          return { value: Number(item.value), ttl: item.ttl < 0 ? Infinity : item.ttl };
        }),
      );
    },
    async seed(key, value, ttlSeconds) {
      await (nodes[expectNode?.(key) ?? 0] as MemcachedServer).set(key, String(value), ttlSeconds);
    },
    async beforeShortLivedKey() {
      // memcached's clock moves once a second; an item with TTL 1 lives until the next move.
      // Right after a move there is almost a whole second to create it and read it back.
      const node = nodes[0] as MemcachedServer;
      const start = (await node.stats())['time'];
      const deadline = Date.now() + 3000;
      while ((await node.stats())['time'] === start) {
        if (Date.now() > deadline) throw new Error('the memcached clock did not move within 3 s');
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Store checks

export interface Expected {
  value: number;
  /** The TTL the counter got (its unit with EXPIRATION_JITTER_MAX_SECONDS=0). */
  ttl: number;
}

/** How far a TTL may have run down between the write and the read (seconds). */
const TTL_SLACK = 3;
/** How long an asynchronous increment may take to show. */
const STORE_DEADLINE_MS = 5000;

function matches(actual: StoredCounter | undefined, expected: Expected): boolean {
  return actual !== undefined && actual.value === expected.value && actual.ttl <= expected.ttl && actual.ttl > Math.max(0, expected.ttl - TTL_SLACK);
}

/** Reads until `done` holds or STORE_DEADLINE_MS passes, and returns the last read. */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + STORE_DEADLINE_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Polls until every key holds its expected value and TTL (at once for Redis, after the
 * asynchronous increments for memcached), then asserts them (the last read on a timeout).
 */
export async function expectCounters(t: Test, store: StoreInspector, expected: Record<string, Expected>, what: string): Promise<void> {
  const keys = Object.keys(expected);
  const reads = await readUntil(
    () => store.read(keys),
    (values) => keys.every((key, i) => matches(values[i], expected[key] as Expected)),
  );
  keys.forEach((key, i) => {
    const want = expected[key] as Expected;
    const got = reads[i];
    if (matches(got, want)) return t.pass(`${what}: ${key} = ${want.value}, TTL ${want.ttl}`);
    t.fail(`${what}: ${key}`, { found: got ?? 'absent', wanted: `value ${want.value}, TTL in (${want.ttl - TTL_SLACK}, ${want.ttl}]` });
  });
}

/**
 * Exactly these keys hold `value` (every key of a scenario has its value between underscores).
 * Listed until they match or the deadline passes: memcached's crawler skips an item that a
 * connection holds at that moment, so one listing can miss a live key.
 */
export async function expectKeys(t: Test, store: StoreInspector, value: string, keys: string[], what: string): Promise<void> {
  const wanted = [...keys].sort();
  const listed = await readUntil(
    () => store.keys(`*_${value}_*`),
    (found) => JSON.stringify(found) === JSON.stringify(wanted),
  );
  t.same(listed, wanted, `${what}: the keys holding ${value}`);
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const SECOND = 1;
const MINUTE = 60;
const HOUR = 3600;

export interface ScenarioContext {
  svc: Service;
  store: StoreInspector;
  /** CACHE_KEY_PREFIX the service was started with. */
  prefix: string;
}

/** The service's clock (whole seconds) and each unit's window start and seconds until reset. */
function windows(svc: Service): { now: number; second: number; minute: number; hour: number; resetMinute: number; resetHour: number } {
  const now = Math.floor(svc.clock.nowSeconds());
  return {
    now,
    second: now,
    minute: now - (now % MINUTE),
    hour: now - (now % HOUR),
    resetMinute: MINUTE - (now % MINUTE),
    resetHour: HOUR - (now % HOUR),
  };
}

/** Scenario 2: basic D(key1=value) once: 49 left of 50/SECOND, a counter of 1 living 1 s. */
export async function scenario2(t: Test, { svc, store, prefix }: ScenarioContext, value: string): Promise<void> {
  const w = windows(svc);
  const total = ruleStat('basic.key1', 'total_hits');
  const before = svc.stat(total);
  await store.beforeShortLivedKey?.();
  const r = await svc.post({ domain: 'basic', descriptors: [D('key1', value)] });
  const key = `${prefix}basic_key1_${value}_${w.second}`;
  await expectCounters(t, store, { [key]: { value: 1, ttl: SECOND } }, 'scenario 2');
  t.equal(r.status, 200);
  t.same(r.json, response('OK', [ok(50, 'SECOND', 49, 1)]));
  t.equal(svc.stat(total) - before, 1, 'total_hits +1');
  await expectKeys(t, store, value, [key], 'scenario 2');
}

/** Scenario 3: 25 x another D(key2=value): 20 OK counting down, then 5 OVER_LIMIT; the counter keeps counting. */
export async function scenario3(t: Test, { svc, store, prefix }: ScenarioContext, value: string): Promise<void> {
  const w = windows(svc);
  const stat = (s: string) => svc.stat(ruleStat('another.key2', s));
  const before = { total: stat('total_hits'), over: stat('over_limit'), within: stat('within_limit'), near: stat('near_limit') };
  const key = `${prefix}another_key2_${value}_${w.minute}`;
  for (let i = 0; i < 25; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', value)] });
    if (i < 20) {
      t.equal(r.status, 200, `request ${i} is allowed`);
      t.same(r.json, response('OK', [ok(20, 'MINUTE', 19 - i, w.resetMinute)]), `request ${i}`);
    } else {
      t.equal(r.status, 429, `request ${i} is over`);
      t.same(r.json, response('OVER_LIMIT', [over(20, 'MINUTE', w.resetMinute)]), `request ${i}`);
    }
    t.equal(stat('total_hits') - before.total, i + 1, `total_hits after request ${i}`);
    t.equal(stat('over_limit') - before.over, Math.max(0, i - 19), `over_limit after request ${i}`);
    // Every request is counted, the ones over the limit too (no STOP_CACHE_KEY_INCREMENT...).
    if (store.countsAfterAnswer || [0, 19, 20, 24].includes(i)) await expectCounters(t, store, { [key]: { value: i + 1, ttl: MINUTE } }, `after request ${i}`);
  }
  t.equal(stat('within_limit') - before.within, 20);
  t.equal(stat('near_limit') - before.near, 4);
  await expectKeys(t, store, value, [key], 'scenario 3');
}

/**
 * Scenario 4 (stopIncrement false) and 5 (true): 15 x another [D(key2=value), D(key3=value)].
 * From the 11th on key3 (10/HOUR) is over; key2 (20/MINUTE) is counted on, or, with stop
 * increment, stays at 10 and answers 10 remaining.
 */
export async function scenario4or5(t: Test, { svc, store, prefix }: ScenarioContext, value: string, stopIncrement: boolean): Promise<void> {
  const w = windows(svc);
  const key2 = (s: string) => svc.stat(ruleStat('another.key2', s));
  const key3 = (s: string) => svc.stat(ruleStat('another.key3', s));
  const before = { total2: key2('total_hits'), over2: key2('over_limit'), total3: key3('total_hits'), over3: key3('over_limit') };
  const k2 = `${prefix}another_key2_${value}_${w.minute}`;
  const k3 = `${prefix}another_key3_${value}_${w.hour}`;
  for (let i = 0; i < 15; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', value), D('key3', value)] });
    const count2 = stopIncrement ? Math.min(i + 1, 10) : i + 1;
    if (i < 10) {
      t.equal(r.status, 200, `pair ${i} is allowed`);
      t.same(r.json, response('OK', [ok(20, 'MINUTE', 19 - i, w.resetMinute), ok(10, 'HOUR', 9 - i, w.resetHour)]), `pair ${i}`);
    } else {
      t.equal(r.status, 429, `pair ${i} is over`);
      t.same(r.json, response('OVER_LIMIT', [ok(20, 'MINUTE', 20 - count2, w.resetMinute), over(10, 'HOUR', w.resetHour)]), `pair ${i}`);
    }
    t.equal(key3('over_limit') - before.over3, Math.max(0, i - 9), `key3 over_limit after pair ${i}`);
    t.equal(key2('total_hits') - before.total2, i + 1, `key2 total_hits after pair ${i}`);
    t.equal(key3('total_hits') - before.total3, i + 1, `key3 total_hits after pair ${i}`);
    t.equal(key2('over_limit') - before.over2, 0, 'key2 is never over');
    if (!store.countsAfterAnswer && ![0, 9, 10, 14].includes(i)) continue;
    await expectCounters(t, store, { [k2]: { value: count2, ttl: MINUTE }, [k3]: { value: i + 1, ttl: HOUR } }, `after pair ${i}`);
  }
  await expectKeys(t, store, value, [k2, k3], stopIncrement ? 'scenario 5' : 'scenario 4');
}

/**
 * Upstream's key TTL is the unit plus jitter, and its Redis cache sends EXPIRE with every
 * increment: a counter planted with TTL 1000 s gets its unit back (jitter is 0 here); memcached
 * sets the TTL only when it creates the counter, so it keeps 1000 s.
 */
export async function ttlRefresh(t: Test, { svc, store, prefix }: ScenarioContext, value: string): Promise<void> {
  const w = windows(svc);
  const key = `${prefix}another_key2_${value}_${w.minute}`;
  await store.seed(key, 5, 1000);
  const r = await svc.post({ domain: 'another', descriptors: [D('key2', value)] });
  t.same(r.json, response('OK', [ok(20, 'MINUTE', 14, w.resetMinute)]), 'the planted count is used: 5 + 1 of 20');
  const ttl = store.kind === 'redis' ? MINUTE : 1000;
  await expectCounters(t, store, { [key]: { value: 6, ttl } }, store.kind === 'redis' ? 'Redis refreshes the TTL' : 'memcached keeps the TTL');
}

export interface StoreScenarioOptions {
  store: StoreInspector;
  /** Settings that select and reach the store (BACKEND_TYPE, KVSTORE_*, OBJCACHE_*). */
  env: Record<string, string>;
  /** Put into every value, so variants sharing a server never share a counter. */
  tag: string;
  /** Values for scenarios 4 and 5 per prefix ('' and 'prefix:'), for a cluster that needs keys on distinct nodes. */
  pairValue?: (prefix: string, scenario: 4 | 5) => Promise<string>;
}

/** Starts the service on the store with the fixtures `basic` and `another`, jitter 0; `t` closes it. */
export async function storeService(t: Teardown, env: Record<string, string>, extra: Record<string, string> = {}, now = DEFAULT_NOW): Promise<Service> {
  return startService(t, {
    files: { 'basic.yaml': fixture('basic.yaml'), 'another.yaml': fixture('another.yaml') },
    env: { EXPIRATION_JITTER_MAX_SECONDS: '0', KVSTORE_POOL_SIZE: '2', OBJCACHE_MAX_IDLE_CONNS: '2', ...env, ...extra },
    now,
  });
}

/**
 * Scenarios 2, 3, 4, 5 and 9 (CACHE_KEY_PREFIX `prefix:` at another clock: 2 to 4 again) and
 * the TTL refresh rule, as subtests of `t`.
 */
export async function runStoreScenarios(t: Test, options: StoreScenarioOptions): Promise<void> {
  const { env, tag } = options;
  const pairValue = options.pairValue ?? (async (prefix: string, scenario: 4 | 5) => `s${scenario}${prefix === '' ? '' : 'p'}-${tag}`);
  // The services close together at the end (closing one takes a quarter of a second).
  const closers: Array<() => unknown> = [];
  const closeLater: Teardown = { teardown: (fn) => void closers.push(fn) };
  try {
    await scenarioSet(t, options.store, env, tag, pairValue, closeLater);
  } finally {
    await Promise.all(closers.map((close) => close()));
  }
}

async function scenarioSet(
  t: Test,
  store: StoreInspector,
  env: Record<string, string>,
  tag: string,
  pairValue: NonNullable<StoreScenarioOptions['pairValue']>,
  closeLater: Teardown,
): Promise<void> {
  await t.test('scenarios 2, 3, 4 and the TTL rule', async (t) => {
    const svc = await storeService(closeLater, env);
    const ctx = { svc, store, prefix: '' };
    await t.test('scenario 2', (t) => scenario2(t, ctx, `s2-${tag}`));
    await t.test('scenario 3', (t) => scenario3(t, ctx, `s3-${tag}`));
    await t.test('scenario 4', async (t) => scenario4or5(t, ctx, await pairValue('', 4), false));
    await t.test('TTL refreshed on every increment, as upstream', (t) => ttlRefresh(t, ctx, `ttl-${tag}`));
  });

  await t.test('scenario 5: STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT', async (t) => {
    const svc = await storeService(closeLater, env, { STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT: 'true' });
    // Redis stops counting key2 once key3 is over; memcached ignores the setting, as upstream.
    await scenario4or5(t, { svc, store, prefix: '' }, await pairValue('', 5), store.kind === 'redis');
  });

  await t.test('scenario 9: CACHE_KEY_PREFIX=prefix: (now 1234)', async (t) => {
    const svc = await storeService(closeLater, env, { CACHE_KEY_PREFIX: 'prefix:' }, 1234);
    // Each scenario checks that the keys holding its values are exactly the prefixed ones,
    // e.g. prefix:basic_key1_<value>_1234, as upstream builds its cache keys.
    const ctx = { svc, store, prefix: 'prefix:' };
    await t.test('scenario 2 with the prefix', (t) => scenario2(t, ctx, `s2p-${tag}`));
    await t.test('scenario 3 with the prefix', (t) => scenario3(t, ctx, `s3p-${tag}`));
    await t.test('scenario 4 with the prefix', async (t) => scenario4or5(t, ctx, await pairValue('prefix:', 4), false));
  });
}

/** An error answer of /json: 400 `Bad Request`, the reason in X-Ratelimit-Error. */
export function expectBadRequest(t: Test, r: { status: number; text: string; headers: Record<string, string> }, reason: RegExp, what: string): void {
  t.equal(r.status, 400, `${what}: 400`);
  t.equal(r.text, BAD_REQUEST, `${what}: body`);
  t.equal(r.headers['content-type'], TEXT_PLAIN, `${what}: content type`);
  t.match(r.headers['x-ratelimit-error'] ?? '', reason, `${what}: X-Ratelimit-Error`);
}

/** Requests whose store fails count here (upstream's name for every counter store). */
export const REDIS_ERROR = 'ratelimit.service.call.should_rate_limit.redis_error';
/**
 * Requests fail while the store cannot be used: 400 with the store's reason, redis_error counted
 * per request, nothing stored, and the service keeps answering.
 */
export async function expectStoreFailures(t: Test, svc: Service, store: StoreInspector, value: string, reason: RegExp, what: string): Promise<void> {
  const before = svc.stat(REDIS_ERROR);
  for (let i = 0; i < 3; i++) {
    const r = await svc.post({ domain: 'another', descriptors: [D('key2', value)] });
    expectBadRequest(t, r, reason, `${what}: request ${i}`);
    t.equal(svc.stat(REDIS_ERROR) - before, i + 1, `${what}: redis_error counts request ${i}`);
  }
  const health = await svc.request('/healthcheck');
  t.equal(health.status, 200, `${what}: the service is still up and answering`);
  t.same(await store.keys(`*_${value}_*`), [], `${what}: nothing was counted`);
}

/** Each case's service at once (closing one takes a quarter of a second), then closed together. */
export async function expectFailingSetups(t: Test, cases: Array<[string, Record<string, string>, StoreInspector]>, reason: RegExp): Promise<void> {
  const closers: Array<() => unknown> = [];
  try {
    await Promise.all(
      cases.map(async ([what, env, store], i) => {
        const svc = await storeService({ teardown: (fn) => void closers.push(fn) }, { KVSTORE_POOL_SIZE: '1', ...env });
        await expectStoreFailures(t, svc, store, `bad${i}`, reason, what);
      }),
    );
  } finally {
    await Promise.all(closers.map((close) => close()));
  }
}

