/**
 * A legitimate rules file of 200,000 descriptors takes effect while decisions keep flowing:
 * the loader thread parses it (seconds), every deciding thread compiles it a slice at a time, and
 * no /json or gRPC request waits more than 500 ms meanwhile. It used to block gRPC for 12-19 s
 * and then fail with a stack overflow.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import t from 'tap';
import { RlsClient, toGrpcRequest, toJsonShape } from '../support/grpc-client.js';
import { startProcess } from '../support/process-harness.js';
import { D, waitFor } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const RULES = 200_000;
const MAX_WAIT_MS = 500;

/**
 * Streams the rules to `path` a thousand at a time: the test process measures latency, so it
 * must not itself hold (and later collect) a 19 MB string while it does.
 */
async function writeBigRules(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('domain: big\ndescriptors:\n');
  for (let start = 0; start < RULES; start += 1000) {
    let chunk = '';
    for (let i = start; i < start + 1000; i++) chunk += `  - key: user\n    value: u${i}\n    rate_limit:\n      unit: minute\n      requests_per_unit: ${(i % 100) + 1}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

t.test(`${RULES} descriptors load while /json and gRPC keep answering`, { timeout: 300_000 }, async (t) => {
  const temp = await tempDir(t, 'rl-large-');
  const dir = join(temp, 'ratelimit', 'config');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'big.yaml'), 'domain: big\ndescriptors:\n  - key: user\n    rate_limit: {unit: minute, requests_per_unit: 5}\n');
  const proc = await startProcess(t, { RUNTIME_ROOT: temp, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_WATCH_ROOT: 'false', HTTP_WORKERS: '1' });
  const grpc = new RlsClient(proc.grpcAddress);
  t.teardown(() => grpc.close());
  await writeBigRules(join(temp, 'big.yaml.tmp'));

  let running = true;
  let slowest = 0;
  let answered = 0;
  const failures: string[] = [];
  /** `call` answers undefined when all is well, or what went wrong. */
  const timed = async (call: () => Promise<string | undefined>) => {
    while (running) {
      const started = performance.now();
      const failure = await call().catch((error: unknown) => String(error));
      slowest = Math.max(slowest, performance.now() - started);
      answered++;
      if (failure !== undefined) failures.push(failure);
      // Paced (about 500 requests/s per loop), as a sidecar's traffic is: flat out, five loops
      // would leave the niced loader thread almost no CPU on a 2-core machine.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  // hitsAddend 0 checks the limit without consuming it, so every answer stays 200 / OK.
  const ask = { domain: 'big', descriptors: [{ ...D('user', 'u199999'), hitsAddend: 0 }] };
  const loops = [
    ...Array.from({ length: 3 }, () =>
      timed(async () => {
        const r = await proc.post(ask);
        return r.status === 200 ? undefined : `/json ${r.status} ${r.text}`;
      }),
    ),
    ...Array.from({ length: 2 }, () =>
      timed(async () => {
        const r = await grpc.call(toGrpcRequest(ask));
        return r.ok ? undefined : `gRPC ${r.code} ${r.details}`;
      }),
    ),
  ];

  await rename(join(temp, 'big.yaml.tmp'), join(dir, 'big.yaml'));
  const started = Date.now();
  try {
    // Each thread compiles on its own: wait until both the HTTP thread and the main thread (gRPC) decide by the new rules.
    const probe = { domain: 'big', descriptors: [{ ...D('user', 'u199998'), hitsAddend: 0 }] };
    await waitFor(
      'the new rule on both protocols',
      async () => {
        const viaJson = (await proc.post(probe)).json?.statuses?.[0]?.currentLimit?.requestsPerUnit;
        const viaGrpc = await grpc.call(toGrpcRequest(probe));
        return viaJson === 99 && viaGrpc.ok && (toJsonShape(viaGrpc.response)['statuses'] as Array<{ currentLimit?: { requestsPerUnit?: number } }>)[0]?.currentLimit?.requestsPerUnit === 99;
      },
      240_000,
      200,
    );
  } finally {
    running = false;
    await Promise.all(loops);
  }
  t.pass(`in service after ${Date.now() - started} ms; ${answered} requests answered meanwhile`);
  t.same(failures.slice(0, 5), [], `every request answered 200 / OK (${failures.length} did not)`);
  t.ok(answered > 100, 'requests kept flowing');
  t.ok(slowest < MAX_WAIT_MS, `the slowest request took ${Math.round(slowest)} ms (limit ${MAX_WAIT_MS})`);
});
