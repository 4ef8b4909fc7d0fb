/**
 * Rules files that used to crash, stall or bloat the process: each is now a failed load (logged,
 * counted as config_load_error) that leaves the rules in service, and the process keeps answering.
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const GOOD = 'domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: minute, requests_per_unit: 7}\n';

/** A "billion laughs": 9 levels of 10 aliases each, 10^9 nodes once expanded, 2.4 KB on disk. */
function billionLaughs(): string {
  let text = 'domain: laughs\nl0: &l0 [k, k, k, k, k, k, k, k, k, k]\n';
  for (let i = 1; i < 9; i++) text += `l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]\n`;
  return text + 'descriptors:\n  - key: k\n    value: *l8\n';
}

async function loads(proc: ServiceProcess): Promise<{ ok: number; failed: number }> {
  return {
    ok: (await proc.stat('ratelimit.service.config_load_success')) ?? 0,
    failed: (await proc.stat('ratelimit.service.config_load_error')) ?? 0,
  };
}

/** The limit `d`/`k` answers with, so a test can tell the old rules are still in service. */
async function limitOfK(proc: ServiceProcess): Promise<unknown> {
  return (await proc.post({ domain: 'd', descriptors: [{ ...D('k', 'x'), hitsAddend: 0 }] })).json?.statuses?.[0]?.currentLimit?.requestsPerUnit;
}

async function serviceWithGoodRules(t: Test, env: Record<string, string> = {}): Promise<{ proc: ServiceProcess; dir: string }> {
  const temp = await tempDir(t, 'rl-hostile-');
  const dir = join(temp, 'ratelimit', 'config');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'good.yaml'), GOOD);
  const proc = await startProcess(t, { RUNTIME_ROOT: temp, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_WATCH_ROOT: 'false', ...env });
  t.equal(await limitOfK(proc), 7, 'the good rules are in service');
  return { proc, dir };
}

/** Writes `name` (renamed in whole) and waits for the load it triggers to fail; the old rules must still answer. */
async function expectRefused(t: Test, proc: ServiceProcess, dir: string, name: string, text: string, message: RegExp): Promise<void> {
  const before = await loads(proc);
  await writeFile(join(dir, `.${name}.tmp`), text);
  await rename(join(dir, `.${name}.tmp`), join(dir, name));
  await waitFor(`the load of ${name} to fail`, async () => (await loads(proc)).failed > before.failed, 60_000);
  t.equal((await loads(proc)).ok, before.ok, 'no successful load counted');
  t.match(proc.stderr, message, 'the reason is logged');
  t.equal(await limitOfK(proc), 7, 'the old rules still answer');
  t.ok(proc.running, 'the process is alive');
}

t.test('an alias bomb in the rules is refused as yaml.v2 refuses it', async (t) => {
  const { proc, dir } = await serviceWithGoodRules(t);
  const started = Date.now();
  await expectRefused(t, proc, dir, 'laughs.yaml', billionLaughs(), /document contains excessive aliasing/);
  t.ok(Date.now() - started < 10_000, `refused in ${Date.now() - started} ms`);
});

t.test('rules files larger than CONFIG_MAX_BYTES are refused by size, unread', async (t) => {
  const { proc, dir } = await serviceWithGoodRules(t, { CONFIG_MAX_BYTES: String(64 * 1024) });
  const comments = '#'.repeat(99) + '\n';
  await expectRefused(t, proc, dir, 'comments.yaml', comments.repeat(2000), /more than CONFIG_MAX_BYTES \(65536\); the largest is config\.comments\.yaml|the largest is comments\.yaml/);
});

t.test('rules larger than CONFIG_MAX_BYTES once expanded are refused, not a crash', async (t) => {
  // Small on disk, large as the threads receive it: every top-level rule shares a long nested
  // list through one alias (a few hundred aliases: within yaml.v2's ratio).
  const nested = Array.from({ length: 40 }, (_, i) => `      - key: n${i}\n        rate_limit: {unit: second, requests_per_unit: ${i + 1}}\n`).join('');
  let text = `domain: expanded\ndescriptors:\n  - key: top0\n    descriptors: &shared\n${nested}`;
  for (let i = 1; i < 60; i++) text += `  - key: top${i}\n    descriptors: *shared\n`;
  const { proc, dir } = await serviceWithGoodRules(t, { CONFIG_MAX_BYTES: String(32 * 1024) });
  t.ok(Buffer.byteLength(text) < 32 * 1024, `the file is ${Buffer.byteLength(text)} bytes`);
  await expectRefused(t, proc, dir, 'expanded.yaml', text, /bytes as JSON, more than CONFIG_MAX_BYTES \(32768\)/);
});

t.test('a file that needs more memory than CONFIG_LOADER_MAX_HEAP_MB fails that load only', async (t) => {
  const { proc, dir } = await serviceWithGoodRules(t, { CONFIG_LOADER_MAX_HEAP_MB: '64' });
  let big = 'domain: big\ndescriptors:\n';
  for (let i = 0; i < 40_000; i++) big += `  - key: user\n    value: u${i}\n    rate_limit: {unit: minute, requests_per_unit: 5}\n`;
  await expectRefused(t, proc, dir, 'big.yaml', big, /needed more than CONFIG_LOADER_MAX_HEAP_MB \(64 MiB\)/);
  // The next load gets a new loader thread.
  const before = await loads(proc);
  await writeFile(join(dir, 'big.yaml'), 'domain: big\ndescriptors: []\n');
  await waitFor('the next load to succeed', async () => (await loads(proc)).ok > before.ok, 30_000);
});

t.test('deep nesting is refused before the parser recurses, however often it is loaded', async (t) => {
  const { proc, dir } = await serviceWithGoodRules(t);
  // A parser that ran out of stack once could abort the process on a later load.
  for (const depth of [5000, 5001, 5002]) {
    const deep = 'domain: deep\ndescriptors: ' + '['.repeat(depth) + ']'.repeat(depth) + '\n';
    await expectRefused(t, proc, dir, 'deep.yaml', deep, /yaml: document nests more than 500 levels/);
  }
});

t.test('a root symlink swapped to a missing directory is a failed load; the old rules stay', async (t) => {
  const temp = await tempDir(t, 'rl-hostile-root-');
  await mkdir(join(temp, 'A', 'ratelimit', 'config'), { recursive: true });
  await writeFile(join(temp, 'A', 'ratelimit', 'config', 'good.yaml'), GOOD);
  await symlink(join(temp, 'A'), join(temp, 'current'));
  const proc = await startProcess(t, { RUNTIME_ROOT: join(temp, 'current'), RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_WATCH_POLL_INTERVAL: '100ms' });
  t.equal(await limitOfK(proc), 7);
  const before = await loads(proc);
  await symlink(join(temp, 'missing'), join(temp, 'current.new'));
  await rename(join(temp, 'current.new'), join(temp, 'current'));
  await waitFor('the failed load', async () => (await loads(proc)).failed > before.failed, 10_000);
  t.equal((await loads(proc)).ok, before.ok, 'not counted as a success');
  t.match(proc.stderr, /cannot read the configuration directory/);
  t.equal(await limitOfK(proc), 7, 'every rule is still there');
});
