/**
 * A legitimate rules file of 100,000 descriptors (9.5 MB) takes effect while decisions keep
 * flowing: the loader thread parses it (seconds), every deciding thread compiles it a slice at a time
 * (test/unit/ratelimit/decisions/thread-engine.test.ts), and every /json and gRPC request is
 * answered meanwhile. It used to block gRPC for 12-19 s and then fail with a stack overflow.
 * How long requests wait meanwhile is measured by `npm run bench:large-rules`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { SMALL_BIG_RULES, writeBigRules } from '../support/big-rules.js';
import { firstLimit, RlsClient, toGrpcRequest } from '../support/grpc-client.js';
import { startProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const RULES = 100_000;

t.test(`${RULES} descriptors load while /json and gRPC keep answering`, async (t) => {
  const temp = await tempDir(t, 'rl-large-');
  const dir = join(temp, 'ratelimit', 'config');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'big.yaml'), SMALL_BIG_RULES);
  // The loader at normal priority: beside other test files, a niced one would wait for all of them.
  const proc = await startProcess(t, { RUNTIME_ROOT: temp, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_WATCH_ROOT: 'false', CONFIG_LOADER_NICE: '0' });
  const grpc = new RlsClient(proc.grpcAddress);
  t.teardown(() => grpc.close());
  await writeBigRules(join(temp, 'big.yaml.tmp'), RULES);

  // hitsAddend 0 checks the limit without consuming it, so every answer stays 200 / OK.
  const ask = (value: string) => ({ domain: 'big', descriptors: [{ ...D('user', value), hitsAddend: 0 }] });
  const viaJson = async (value: string) => {
    const r = await proc.post(ask(value));
    if (r.status !== 200) throw new Error(`/json ${r.status} ${r.text}`);
    return r.json?.statuses?.[0]?.currentLimit?.requestsPerUnit;
  };
  const viaGrpc = async (value: string) => {
    const r = await grpc.call(toGrpcRequest(ask(value)));
    if (!r.ok) throw new Error(`gRPC ${r.code} ${r.details}`);
    return firstLimit(r);
  };

  let running = true;
  const failures: string[] = [];
  /** What each protocol answered for the last value, in order: 5 (the rules before), then 100. */
  const seen = { json: [] as Array<number | undefined>, grpc: [] as Array<number | undefined> };
  const loop = async (protocol: 'json' | 'grpc') => {
    const call = protocol === 'json' ? viaJson : viaGrpc;
    while (running) {
      seen[protocol].push(await call(`u${RULES - 1}`).catch((error: unknown) => void failures.push(String(error))));
      // Paced: the answers' order is what counts here, not how many there are.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const loops = [loop('json'), loop('grpc')];

  await rename(join(temp, 'big.yaml.tmp'), join(dir, 'big.yaml'));
  try {
    await waitFor('the new rule on both protocols', async () => (await viaJson(`u${RULES - 2}`)) === 99 && (await viaGrpc(`u${RULES - 2}`)) === 99, 240_000, 200);
    // The probe above may reach a thread that swapped before the loops' own requests see the new
    // rules (or land between two of their paced requests): keep the loops going until both have.
    await waitFor('both loops answered by the new rules', () => seen.json.includes(100) && seen.grpc.includes(100), 30_000, 20);
  } finally {
    running = false;
    await Promise.all(loops);
  }
  t.same(failures.slice(0, 5), [], `every request answered 200 / OK (${failures.length} did not)`);
  for (const protocol of ['json', 'grpc'] as const) {
    const answers = seen[protocol];
    const firstNew = answers.indexOf(100);
    t.ok(firstNew > 0, `${protocol}: answered by the rules before (${firstNew} times), then by the new ones`);
    t.same([...new Set(answers.slice(0, firstNew))], [5], `${protocol}: before, only the rules before`);
    t.same([...new Set(answers.slice(firstNew))], [100], `${protocol}: after, only the new rules: none saw half of a load`);
  }
});
