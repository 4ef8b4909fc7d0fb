/**
 * KVSTORE_CLUSTER_PIPELINE_PARALLELISM: a request's per-key calls on a Redis Cluster, grouped by
 * the node that owns each key. A node's calls are issued together, so ioredis's auto-pipelining
 * writes them as one batch (one round trip per node), and at most `parallelism` nodes are waited
 * on at once: 1 sends to one node after the other, as upstream does by default.
 *
 * `nodeOf` names a key's node ('' when the slot map is not known yet: the keys then form one
 * group and ioredis routes each call). Answers come back in the order of `keys`.
 */
export function callByNode<T>(keys: readonly string[], nodeOf: (key: string) => string, parallelism: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const groups = new Map<string, number[]>();
  keys.forEach((key, index) => {
    const node = nodeOf(key);
    const group = groups.get(node);
    if (group === undefined) groups.set(node, [index]);
    else group.push(index);
  });
  // Every node at once: no scheduling of our own, the common case for small requests.
  if (groups.size <= parallelism) return Promise.all(keys.map((_, index) => call(index)));
  return inTurns([...groups.values()], parallelism, keys.length, call);
}

async function inTurns<T>(groups: readonly number[][], parallelism: number, count: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const answers: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < groups.length) {
      const group = groups[next++] as number[];
      const values = await Promise.all(group.map((index) => call(index)));
      group.forEach((index, i) => (answers[index] = values[i] as T));
    }
  };
  await Promise.all(Array.from({ length: parallelism }, lane));
  return answers;
}
