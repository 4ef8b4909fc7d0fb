import t from 'tap';
import { Worker } from 'node:worker_threads';
import { Unit, type DescriptorRule, type RateLimitConfig } from '../../../src/engine/index.js';
import { ConfigMailbox, encodeConfigSegments, RULES_PER_SEGMENT, SegmentReader, type MailboxRead } from '../../../src/threads/index.js';

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

const encoded = (limit: number): Uint8Array => new TextEncoder().encode(encodeConfigSegments(config(limit)));

function decode(read: MailboxRead): RateLimitConfig | MailboxRead {
  if (typeof read === 'string') return read;
  const compiler: RateLimitConfig = { domains: [] };
  const reader = new SegmentReader(read.text);
  for (let segment = reader.next(); segment !== undefined; segment = reader.next()) {
    compiler.domains.push({ domain: segment.domain, descriptors: segment.rules });
  }
  return compiler;
}

t.test('a published configuration is read once per generation', async (t) => {
  const mailbox = ConfigMailbox.create(1 << 16);
  t.equal(mailbox.readIfNewer(0), 'unchanged', 'nothing published yet');
  t.equal(mailbox.publish(encoded(5)), 1, 'generation 1');
  const first = mailbox.readIfNewer(0);
  t.match(first, { generation: 1 });
  t.same(decode(first), config(5));
  t.equal(mailbox.readIfNewer(1), 'unchanged', 'same generation: nothing to read');
  mailbox.publish(encoded(7));
  const second = ConfigMailbox.attach(mailbox.buffer).readIfNewer(1);
  t.match(second, { generation: 2 }, 'through another view of the buffer');
  t.same(decode(second), config(7));
});

t.test('a configuration larger than the mailbox is refused, naming the setting', async (t) => {
  const mailbox = ConfigMailbox.create(64);
  t.match(mailbox.publish(encoded(5)), { code: 'CFG_TOO_LARGE', message: /more than CONFIG_MAX_BYTES \(64\)/ }, 'refused as a value, never thrown');
  t.equal(mailbox.generation, 0, 'nothing was published');
});

t.test('segments hold at most RULES_PER_SEGMENT rules and keep every domain, empty ones too', async (t) => {
  const many: RateLimitConfig = {
    domains: [
      { domain: 'big', descriptors: Array.from({ length: RULES_PER_SEGMENT * 2 + 1 }, (_, i) => ({ ...(config(1).domains[0]?.descriptors[0] as DescriptorRule), key: `k${i}` })) },
      { domain: 'empty', descriptors: [] },
    ],
  };
  const text = encodeConfigSegments(many);
  t.equal(text.split('\n').length, 4, 'three segments of big, one of empty');
  const reader = new SegmentReader(text);
  const sizes: Array<[string, number]> = [];
  for (let segment = reader.next(); segment !== undefined; segment = reader.next()) sizes.push([segment.domain, segment.rules.length]);
  t.same(sizes, [['big', RULES_PER_SEGMENT], ['big', RULES_PER_SEGMENT], ['big', 1], ['empty', 0]]);
});

t.test('another thread never reads a torn configuration while the loader publishes', async (t) => {
  const mailbox = ConfigMailbox.create(1 << 20);
  mailbox.publish(encoded(1));
  // The reader thread decodes whatever it reads with the real mailbox; a torn read would fail
  // JSON.parse or lose the rule. 'busy' answers are retried, never waited on.
  const threads = new URL('../../../src/threads/index.js', import.meta.url).href;
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     import(${JSON.stringify(threads)}).then(({ ConfigMailbox, SegmentReader }) => {
       const mailbox = ConfigMailbox.attach(workerData);
       let known = 0, reads = 0, bad = 0, busy = 0;
       const deadline = Date.now() + 400;
       while (Date.now() < deadline) {
         const read = mailbox.readIfNewer(known);
         if (read === 'unchanged') continue;
         if (read === 'busy') { busy++; continue; }
         try { const segment = new SegmentReader(read.text).next(); if (!segment.rules[0].rateLimit) bad++; } catch { bad++; }
         known = read.generation; reads++;
       }
       parentPort.postMessage({ reads, bad, busy });
     });`,
    { eval: true, workerData: mailbox.buffer },
  );
  const result = new Promise<{ reads: number; bad: number; busy: number }>((resolve) => worker.once('message', resolve));
  const until = Date.now() + 300;
  let limit = 1;
  while (Date.now() < until) mailbox.publish(encoded(++limit));
  const { reads, bad, busy } = await result;
  t.equal(bad, 0, `no torn reads in ${reads} reads of ${limit} publishes (${busy} busy)`);
  t.ok(reads > 0);
});
