import type { Duplex } from 'node:stream';
import t from 'tap';
import { openRedisClient } from '../../../src/backends/redis/redis-connection.js';
import { RedisCounterStore } from '../../../src/backends/redis/redis-counter-store.js';
import type { RedisConnectionOptions } from '../../../src/backends/redis/redis-options.js';
import { waitFor } from '../../support/wait-for.js';
import { startSilentServer } from '../../support/silent-server.js';

t.test('a socket that reports a second error does not crash the process (ioredis only handles the first)', async (t) => {
  const port = (await startSilentServer(t)).port;
  const errors: string[] = [];
  const options: RedisConnectionOptions = {
    type: 'single',
    socketType: 'tcp',
    url: `127.0.0.1:${port}`,
    connections: 1,
    auth: '',
    sentinelAuth: '',
    tls: undefined,
    pipelineWindowMs: 0,
    pipelineLimit: 0,
    timeoutMs: 5000,
    reconnectMaxDelayMs: 5000,
    clusterPipelineParallelism: 1,
    poolOnEmptyBehavior: 'WAIT',
    startupInitialIntervalMs: 50,
    startupMaxIntervalMs: 1000,
  };
  const client = openRedisClient(options, { onReadyChange: () => {}, onError: (error) => errors.push(error.message) });
  t.teardown(() => client.disconnect());
  const stream = await waitFor('the client socket', async () => (client as unknown as { stream?: Duplex }).stream, 5000);
  t.doesNotThrow(() => {
    stream.emit('error', new Error('handshake failed'));
    stream.emit('error', new Error('alert after the failure'));
  }, 'both errors have a listener');
  await waitFor('the first error reported', async () => (errors.length > 0 ? true : undefined), 2000);
  t.equal(errors[0], 'handshake failed', 'ioredis still reports the first error');
});

t.test('KVSTORE_POOL_ON_EMPTY_BEHAVIOR: with no connection ready, WAIT queues until the timeout, ERROR fails at once', async (t) => {
  // The server accepts and never answers, so each connection stays short of ready.
  const port = (await startSilentServer(t)).port;
  const failure = async (poolOnEmptyBehavior: 'WAIT' | 'ERROR') => {
    const connection = {
      type: 'single', socketType: 'tcp', url: `127.0.0.1:${port}`, connections: 1, auth: '', sentinelAuth: '', tls: undefined,
      pipelineWindowMs: 0, pipelineLimit: 0, timeoutMs: 300, reconnectMaxDelayMs: 1000,
      clusterPipelineParallelism: 1, poolOnEmptyBehavior, startupInitialIntervalMs: 50, startupMaxIntervalMs: 1000,
    } as const;
    const store = new RedisCounterStore({ main: connection, perSecond: undefined, expirationJitterMaxSeconds: 0, startupMaxElapsedMs: 0 }, { onReadyChange: () => {}, onError: () => {} });
    t.teardown(() => store.close());
    const started = Date.now();
    const error = await store.increment([{ key: 'k', hits: 1, unit: 2, windowStart: 0 }]).then(() => undefined, (e: Error) => e);
    return { message: error?.message ?? 'answered', ms: Date.now() - started };
  };
  const waited = await failure('WAIT');
  t.match(waited.message, /timed out/i, 'WAIT: the command queued on the connecting connection until KVSTORE_TIMEOUT');
  t.ok(waited.ms >= 250, `after the timeout (${waited.ms} ms)`);
  const refused = await failure('ERROR');
  t.match(refused.message, /is not connected/, 'ERROR: refused without waiting');
  t.ok(refused.ms < 250, `at once (${refused.ms} ms)`);
});
