import t from 'tap';
import { Worker } from 'node:worker_threads';
import type { RateLimitConfig } from '../../../src/engine/index.js';
import { Unit } from '../../../src/engine/index.js';
import { ConfigMailbox } from '../../../src/threads/index.js';

const config = (limit: number): RateLimitConfig => ({
  domains: [
    {
      domain: 'd',
      descriptors: [
        {
          key: 'k',
          value: '',
          shadowMode: false,
          detailedMetric: false,
          shareThreshold: false,
          descriptors: [],
          rateLimit: { unit: Unit.SECOND, requestsPerUnit: limit, unlimited: false, name: '', replaces: [] },
        },
      ],
    },
  ],
});

t.test('a published configuration is read once per generation', async (t) => {
  const mailbox = ConfigMailbox.create(1 << 16);
  t.equal(mailbox.readIfNewer(0), undefined, 'nothing published yet');
  mailbox.publish(config(5));
  const first = mailbox.readIfNewer(0);
  t.same(first, { generation: 1, config: config(5) });
  t.equal(mailbox.readIfNewer(1), undefined, 'same generation: nothing to read');
  mailbox.publish(config(7));
  t.same(ConfigMailbox.attach(mailbox.buffer).readIfNewer(1), { generation: 2, config: config(7) }, 'through another view of the buffer');
});

t.test('a configuration larger than the mailbox is refused, naming the setting', async (t) => {
  const mailbox = ConfigMailbox.create(64);
  t.match(mailbox.publish(config(5)), { code: 'CFG_TOO_LARGE', message: /more than CONFIG_MAX_BYTES \(64\)/ }, 'refused as a value, never thrown');
  t.equal(mailbox.generation, 0, 'nothing was published');
});

t.test('another thread never reads a torn configuration while the main thread publishes', async (t) => {
  const mailbox = ConfigMailbox.create(1 << 20);
  mailbox.publish(config(1));
  // The reader thread parses whatever it reads; a torn read would fail JSON.parse or mix limits.
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const words = new Int32Array(workerData, 0, 4);
     let known = 0, reads = 0, bad = 0;
     const bytes = new Uint8Array(workerData, 16);
     const deadline = Date.now() + 400;
     while (Date.now() < deadline) {
       const generation = Atomics.load(words, 0);
       if (generation === known) continue;
       const seq = Atomics.load(words, 1);
       if (seq % 2 === 1) continue;
       const copy = bytes.slice(0, Atomics.load(words, 2));
       if (Atomics.load(words, 1) !== seq) continue;
       try { const c = JSON.parse(new TextDecoder().decode(copy)); if (!c.domains[0].descriptors[0].rateLimit) bad++; } catch { bad++; }
       known = generation; reads++;
     }
     parentPort.postMessage({ reads, bad });`,
    { eval: true, workerData: mailbox.buffer },
  );
  const result = new Promise<{ reads: number; bad: number }>((resolve) => worker.once('message', resolve));
  const until = Date.now() + 300;
  let limit = 1;
  while (Date.now() < until) mailbox.publish(config(++limit));
  const { reads, bad } = await result;
  t.equal(bad, 0, `no torn reads in ${reads} reads of ${limit} publishes`);
  t.ok(reads > 0);
});
