/**
 * A thread's engine takes a new configuration without holding up its decisions: a large one is
 * compiled a slice at a time between turns of the event loop while the one in service answers,
 * then swapped in whole. (It used to be compiled at once, blocking the thread for seconds.)
 */
import t, { type Test } from 'tap';
import { SharedMemoryCounterStore } from '../../../../src/backends/shared-memory/index.js';
import { loadConfig } from '../../../../src/config/index.js';
import { ManualClock, type RateLimitRequest } from '../../../../src/engine/index.js';
import { ThreadEngine } from '../../../../src/ratelimit/decisions/thread-engine.js';
import { ConfigMailbox, encodeConfigSegments } from '../../../../src/threads/index.js';

const SETTINGS = {
  nearLimitRatio: 0.8,
  shadowMode: false,
  cacheKeyPrefix: '',
  responseHeaders: undefined,
  maxDescriptorsPerRequest: 1000,
  localCacheSizeBytes: 0,
  stopIncrementWhenOverLimit: false,
};

/** A domain `big` whose key `user` has `count` values, each its own limit (1 to 100 per minute). */
function bigRules(count: number): string {
  let text = 'domain: big\ndescriptors:\n  - key: user\n    rate_limit: {unit: minute, requests_per_unit: 5}\n';
  for (let i = 0; i < count; i++) text += `  - key: user\n    value: u${i}\n    rate_limit: {unit: minute, requests_per_unit: ${(i % 100) + 1}}\n`;
  return text;
}

function publish(mailbox: ConfigMailbox, yaml: string): number {
  const loaded = loadConfig([{ name: 'config.big.yaml', text: yaml }], { mergeDomainConfigs: false });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const generation = mailbox.publish(new TextEncoder().encode(encodeConfigSegments(loaded.value)));
  if (typeof generation !== 'number') throw new Error(generation.message);
  return generation;
}

/** The limit a check of `value` (no hits) answers with. */
async function limitOf(engine: ThreadEngine, value: string): Promise<number | undefined> {
  const request: RateLimitRequest = { domain: 'big', descriptors: [{ entries: [{ key: 'user', value }], hitsAddend: 0 }], hitsAddend: 1 };
  const decision = await engine.decide(request);
  if (!('statuses' in decision)) throw new Error(decision.message);
  return decision.statuses[0]?.currentLimit?.requestsPerUnit;
}

/** A thread's engine on a mailbox of its own, the embedded store, a clock that stands still. */
function engineOnItsMailbox(t: Test): { mailbox: ConfigMailbox; engine: ThreadEngine } {
  const mailbox = ConfigMailbox.create(64 * 1024 * 1024);
  const engine = new ThreadEngine({
    mailboxBuffer: mailbox.buffer,
    store: SharedMemoryCounterStore.create({ maxKeysPerWindow: 1000 }),
    settings: SETTINGS,
    clock: new ManualClock(1_000_000),
  });
  t.teardown(() => engine.close());
  return { mailbox, engine };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('a large configuration compiles across many turns while the one in service answers', async (t) => {
  const { mailbox, engine } = engineOnItsMailbox(t);

  const first = publish(mailbox, bigRules(10));
  t.equal(await limitOf(engine, 'u9'), 10, 'the first configuration is in service at once');
  t.equal(engine.configGeneration, first);

  const second = publish(mailbox, bigRules(20_000));
  const inService = engine.whenInService(second);
  let answeredMeanwhile = 0;
  while (engine.configGeneration !== second) {
    t.equal(await limitOf(engine, 'u19999'), 5, 'answered by the rules in service (u19999 is not in them yet)');
    answeredMeanwhile++;
    await nextTurn();
  }
  t.ok(answeredMeanwhile > 1, `${answeredMeanwhile} decisions answered while the new rules compiled`);
  await inService;
  t.equal(await limitOf(engine, 'u19999'), 100, 'then the new rules answer, all of them at once');
  t.equal(await limitOf(engine, 'u0'), 1);
});

t.test('a configuration published while another compiles replaces it; the older one never serves', async (t) => {
  const { mailbox, engine } = engineOnItsMailbox(t);
  publish(mailbox, bigRules(10));
  await limitOf(engine, 'u0');

  const abandoned = publish(mailbox, bigRules(20_000));
  await limitOf(engine, 'u0');
  await nextTurn();
  const latest = publish(mailbox, bigRules(10_000));
  const generations = new Set<number>();
  while (engine.configGeneration !== latest) {
    generations.add(engine.configGeneration);
    await limitOf(engine, 'u0');
    await nextTurn();
  }
  t.notOk(generations.has(abandoned), 'the abandoned configuration was never in service');
  t.equal(await limitOf(engine, 'u9999'), 100);
  t.equal(await limitOf(engine, 'u19999'), 5, 'a value only the abandoned rules had');
});
