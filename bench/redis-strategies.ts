/**
 * `npm run bench:redis [-- --seconds 5 --keys 2]`: which way of sending a request's INCRBY +
 * EXPIRE pairs to Redis costs the client least, measured against a real redis-server in one run.
 * Each strategy keeps 256 requests in flight for the given time; the figures are decisions per
 * second and client CPU time per decision (this process's user+system time / decisions), the
 * steadier of the two on a shared machine. redis-server runs pinned to CPU 1, this client to CPU 0.
 *
 *   a  pipeline().incrby().expire()...exec() per request
 *   b  incrby + expire per key, auto-pipelined (all commands of an event-loop turn in one write)
 *   c  one Lua call per request (INCRBY + EXPIRE of every key), no auto-pipelining: what
 *      RedisCounterStore does outside cluster mode (the cheapest here)
 *   d  one Lua call per request, auto-pipelined
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { INCREMENT_SCRIPT } from '../src/backends/redis/redis-counter-store.js';
import { startRedis } from '../test/support/store-servers.js';
import { Teardowns } from '../test/support/teardown.js';

type Send = (client: Redis, keys: string[]) => Promise<unknown>;

const strategies: Array<{ id: string; what: string; autoPipelining: boolean; send: Send }> = [
  {
    id: 'a',
    what: 'pipeline() INCRBY+EXPIRE per request',
    autoPipelining: false,
    send: (client, keys) => {
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.incrby(key, 1).expire(key, 60);
      return pipeline.exec();
    },
  },
  {
    id: 'b',
    what: 'INCRBY+EXPIRE per key, auto-pipelined',
    autoPipelining: true,
    send: (client, keys) => Promise.all(keys.flatMap((key) => [client.incrby(key, 1), client.expire(key, 60)])),
  },
  { id: 'c', what: 'one Lua call per request (the store)', autoPipelining: false, send: (client, keys) => lua(client, keys) },
  { id: 'd', what: 'one Lua call per request, auto-pipelined', autoPipelining: true, send: (client, keys) => lua(client, keys) },
];

function lua(client: Redis, keys: string[]): Promise<unknown> {
  const args: Array<string | number> = [...keys];
  for (let i = 0; i < keys.length; i++) args.push(1, 60);
  return (client as unknown as { rlIncrement(n: number, ...a: Array<string | number>): Promise<unknown> }).rlIncrement(keys.length, ...args);
}

async function measure(port: number, strategy: (typeof strategies)[number], keysPerRequest: number, seconds: number) {
  const client = new Redis({ port, host: '127.0.0.1', enableAutoPipelining: strategy.autoPipelining });
  client.defineCommand('rlIncrement', { lua: INCREMENT_SCRIPT });
  await client.ping();
  let decisions = 0;
  let running = true;
  const user = (n: number) => Array.from({ length: keysPerRequest }, (_, k) => `bench_user_${n % 10_000}_k${k}_1700000000`);
  const loop = async (lane: number) => {
    for (let n = lane; running; n += 256) {
      await strategy.send(client, user(n));
      decisions++;
    }
  };
  // Warm-up, then the measured run.
  const warm = Date.now() + 1000;
  await Promise.all(Array.from({ length: 64 }, async (_, lane) => { for (let n = lane; Date.now() < warm; n += 64) await strategy.send(client, user(n)); }));
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const lanes = Array.from({ length: 256 }, (_, lane) => loop(lane));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  await Promise.all(lanes);
  const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  client.disconnect();
  return { perSecond: decisions / elapsedS, cpuUsPerDecision: (cpu.user + cpu.system) / decisions };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, keys: { type: 'string', default: '1' }, rounds: { type: 'string', default: '3' } } });
  const seconds = Number(values.seconds);
  const keysPerRequest = Number(values.keys);
  const rounds = Number(values.rounds);
  execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
  const teardowns = new Teardowns();
  try {
    const { port } = await startRedis(teardowns, { cpus: '1' });
    console.log(`redis strategies: ${keysPerRequest} key(s) per request, 256 in flight, ${seconds} s x ${rounds} rounds (interleaved); client on CPU 0, redis-server on CPU 1`);
    const results = new Map<string, Array<{ perSecond: number; cpuUsPerDecision: number }>>();
    for (let round = 0; round < rounds; round++) {
      for (const strategy of strategies) {
        const result = await measure(port, strategy, keysPerRequest, seconds);
        results.set(strategy.id, [...(results.get(strategy.id) ?? []), result]);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const best = Math.min(...strategies.map((s) => median(results.get(s.id)!.map((r) => r.cpuUsPerDecision))));
    console.log('\nid  strategy                                               decisions/s  client cpu us/decision  vs best');
    for (const strategy of strategies) {
      const runs = results.get(strategy.id)!;
      const cpu = median(runs.map((r) => r.cpuUsPerDecision));
      console.log(
        `${strategy.id.padEnd(3)} ${strategy.what.padEnd(54)} ${median(runs.map((r) => r.perSecond)).toFixed(0).padStart(11)}  ${cpu.toFixed(1).padStart(22)}  ${(cpu / best).toFixed(2).padStart(7)}`,
      );
    }
    console.log('\n(medians over rounds; lower CPU per decision is better)');
  } finally {
    await teardowns.run();
  }
}

await main();
