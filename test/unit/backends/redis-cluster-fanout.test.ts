import t from 'tap';
import { callByNode } from '../../../src/backends/redis/cluster-fanout.js';
import { clusterSlot } from '../../../src/backends/redis/cluster-slot.js';

t.test('clusterSlot follows the Redis Cluster specification', async (t) => {
  t.equal(clusterSlot('123456789'), 0x31c3, 'the specification\'s CRC16 check value');
  t.equal(clusterSlot('foo'), 12182, 'as CLUSTER KEYSLOT foo answers');
  t.equal(clusterSlot('{user1000}.following'), clusterSlot('{user1000}.followers'), 'a hash tag decides the slot');
  t.not(clusterSlot('{}a'), clusterSlot('{}b'), 'an empty tag: the whole key is hashed');
});

/** Calls that stay pending until the test releases them, recording how many nodes wait at once. */
function pendingCalls(keys: string[]) {
  const release: Array<() => void> = [];
  const inFlight = new Set<string>();
  let mostNodes = 0;
  const nodeOf = (key: string) => key.split(':')[0] as string;
  const call = (index: number) =>
    new Promise<string>((resolve) => {
      const key = keys[index] as string;
      inFlight.add(nodeOf(key));
      mostNodes = Math.max(mostNodes, inFlight.size);
      release.push(() => {
        inFlight.delete(nodeOf(key));
        resolve(`value of ${key}`);
      });
    });
  const drain = async () => {
    while (release.length > 0) {
      // One node's calls at a time, the way a node answers its pipeline.
      release.splice(0).forEach((done) => done());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { nodeOf, call, drain, mostNodes: () => mostNodes, pending: () => release.length };
}

const KEYS = ['a:1', 'b:1', 'a:2', 'c:1', 'd:1', 'b:2'];

for (const [parallelism, expected] of [
  [1, 1],
  [2, 2],
  [4, 4],
  [8, 4],
] as const) {
  t.test(`parallelism ${parallelism}: at most ${expected} nodes wait at once, and a node's keys go together`, async (t) => {
    const calls = pendingCalls(KEYS);
    const answers = callByNode(KEYS, calls.nodeOf, parallelism, calls.call);
    if (parallelism === 1) t.equal(calls.pending(), 2, "the first node's two keys are issued together");
    await calls.drain();
    t.same(await answers, KEYS.map((key) => `value of ${key}`), 'answers in the order of the keys');
    t.equal(calls.mostNodes(), expected);
  });
}

t.test('a failing call fails the whole request', async (t) => {
  const answers = callByNode(['a:1', 'b:1', 'c:1'], (key) => key.slice(0, 1), 1, (index) =>
    index === 1 ? Promise.reject(new Error('CLUSTERDOWN')) : Promise.resolve(index),
  );
  await t.rejects(answers, /CLUSTERDOWN/);
});
