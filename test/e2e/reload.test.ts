/**
 * Configuration reloads of the real process with real files, as upstream's integration test for
 * config reloads:
 * - RUNTIME_WATCH_ROOT=true (default): only an atomic swap of the RUNTIME_ROOT symlink reloads;
 * - RUNTIME_WATCH_ROOT=false: any write, create or remove in the config directory reloads;
 * - a broken file keeps the old configuration serving and counts config_load_error.
 * Every wait polls with a deadline; there are no fixed sleeps.
 */
import { mkdir, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';
import { NO_LIMIT, ok, over, response } from './expect.js';

const RELOAD_TIMEOUT_MS = 5000;

async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(join(dir, 'config'), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'config', name), text);
}

/** Points `link` at `target` atomically: a new symlink renamed over the old one. */
async function swapSymlink(link: string, target: string): Promise<void> {
  const staging = `${link}.new`;
  await symlink(target, staging);
  await rename(staging, link);
}

/** `basic` with key1 limited to `n` per second. */
function basicWithKey1(n: number): string {
  return fixture('basic.yaml').replace(/(- key: key1\n {4}rate_limit:\n {6}unit: second\n {6}requests_per_unit: )50/, `$1${n}`);
}

async function limitOf(proc: ServiceProcess, domain: string, key: string, value: string): Promise<unknown> {
  const r = await proc.post({ domain, descriptors: [{ ...D(key, value), hitsAddend: 0 }] });
  return r.json?.statuses?.[0]?.currentLimit;
}

async function waitForLimit(proc: ServiceProcess, domain: string, key: string, expected: unknown, what: string): Promise<void> {
  await waitFor(
    what,
    async () => JSON.stringify(await limitOf(proc, domain, key, 'probe')) === JSON.stringify(expected),
    RELOAD_TIMEOUT_MS,
  );
}

t.test('sanity: basicWithKey1 rewrites only key1', async (t) => {
  const text = basicWithKey1(7);
  t.match(text, /- key: key1\n {4}rate_limit:\n {6}unit: second\n {6}requests_per_unit: 7\n/);
  t.match(text, /- key: key1_local\n {4}rate_limit:\n {6}unit: second\n {6}requests_per_unit: 50\n/);
});

t.test('RUNTIME_WATCH_ROOT=true: an atomic symlink swap loads the new directory', async (t) => {
  const temp = await tempDir(t, 'rl-reload-');
  const dirA = join(temp, 'A');
  const dirB = join(temp, 'B');
  await writeTree(dirA, { 'basic.yaml': fixture('basic.yaml') });
  await writeTree(dirB, { 'basic.yaml': basicWithKey1(7), 'reload.yaml': fixture('reload.yaml') });
  const current = join(temp, 'current');
  await symlink(dirA, current);

  const proc = await startProcess(t, { RUNTIME_ROOT: current, RUNTIME_WATCH_POLL_INTERVAL: '100ms' });
  t.same(await limitOf(proc, 'basic', 'key1', 'x'), { requestsPerUnit: 50, unit: 'SECOND' }, 'A is loaded');
  t.same(await limitOf(proc, 'reload', 'key1', 'x'), undefined, 'A has no reload domain');
  t.equal(await proc.stat('ratelimit.service.config_load_success'), 1);
  const rlconfigA = (await proc.debug('/rlconfig')).text;

  await swapSymlink(current, dirB);
  const rlconfigB = await waitFor(
    '/rlconfig to show directory B',
    async () => {
      const text = (await proc.debug('/rlconfig')).text;
      return text.includes('reload.key1: ') ? text : undefined;
    },
    RELOAD_TIMEOUT_MS,
  );
  t.not(rlconfigB, rlconfigA);
  t.match(rlconfigB, /^basic\.key1: unit=SECOND requests_per_unit=7, shadow_mode: false, quota_mode: false$/m);
  t.match(rlconfigB, /^reload\.block: unit=SECOND requests_per_unit=0, shadow_mode: false, quota_mode: false$/m);
  t.same(await limitOf(proc, 'basic', 'key1', 'x'), { requestsPerUnit: 7, unit: 'SECOND' }, 'B answers');
  const block = await proc.post({ domain: 'reload', descriptors: [D('block', 'x')] });
  t.equal(block.status, 429);
  t.same(block.json, response('OVER_LIMIT', [over(0, 'SECOND', 1)]));
  t.equal(await proc.stat('ratelimit.service.config_load_success'), 2, 'one successful load per swap');
  t.equal(await proc.stat('ratelimit.service.config_load_error'), 0);

  // And back again: the swap is detected however many times it happens.
  await swapSymlink(current, dirA);
  await waitForLimit(proc, 'basic', 'key1', { requestsPerUnit: 50, unit: 'SECOND' }, 'key1 back to 50/SECOND after swapping back to A');
  t.same(await limitOf(proc, 'reload', 'key1', 'x'), undefined, 'the reload domain is gone again');
  t.equal(await proc.stat('ratelimit.service.config_load_success'), 3);
  t.ok(proc.running, 'the process is still running');
});

t.test('RUNTIME_WATCH_ROOT=false: in-place write, create and remove each reload (scenario 7)', async (t) => {
  const temp = await tempDir(t, 'rl-reload-');
  const root = join(temp, 'root');
  const configDir = join(root, 'config');
  await writeTree(root, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, RUNTIME_WATCH_ROOT: 'false', RUNTIME_WATCH_POLL_INTERVAL: '100ms' });
  const success = () => proc.stat('ratelimit.service.config_load_success');
  t.equal(await success(), 1);

  // In-place write of an existing file.
  await writeFile(join(configDir, 'basic.yaml'), basicWithKey1(7));
  await waitForLimit(proc, 'basic', 'key1', { requestsPerUnit: 7, unit: 'SECOND' }, 'key1 at 7/SECOND after the in-place write');
  const afterWrite = (await success()) ?? 0;
  t.ok(afterWrite >= 2, `config_load_success increased (${afterWrite})`);

  // Scenario 7: before the file exists, the reload domain is unknown.
  const before = await proc.post({ domain: 'reload', descriptors: [D('block', 'foo')] });
  t.same(before.json, response('OK', [NO_LIMIT]));

  // Create.
  await writeFile(join(configDir, 'reload.yaml'), fixture('reload.yaml'));
  await waitFor('config_load_success to increase after creating reload.yaml', async () => ((await success()) ?? 0) > afterWrite, RELOAD_TIMEOUT_MS);
  await waitForLimit(proc, 'reload', 'key1', { requestsPerUnit: 50, unit: 'SECOND' }, 'the reload domain to answer');
  const key1 = await proc.post({ domain: 'reload', descriptors: [D('key1', 'foo')] });
  t.equal(key1.status, 200);
  t.same(key1.json, response('OK', [ok(50, 'SECOND', 49, 1)]));
  const block = await proc.post({ domain: 'reload', descriptors: [D('block', 'x')] });
  t.equal(block.status, 429, 'block is 0 per second');
  t.equal(block.text, '{"overallCode":"OVER_LIMIT","statuses":[{"code":"OVER_LIMIT","currentLimit":{"unit":"SECOND"},"durationUntilReset":"1s"}]}');
  t.same(await limitOf(proc, 'basic', 'key1', 'x'), { requestsPerUnit: 7, unit: 'SECOND' }, 'basic is still loaded');
  const afterCreate = (await success()) ?? 0;

  // Remove.
  await unlink(join(configDir, 'reload.yaml'));
  await waitFor('config_load_success to increase after removing reload.yaml', async () => ((await success()) ?? 0) > afterCreate, RELOAD_TIMEOUT_MS);
  await waitForLimit(proc, 'reload', 'key1', undefined, 'the reload domain to disappear');
  const notFound = async () => (await proc.stat('ratelimit.service.rate_limit.reload.domain_not_found')) ?? 0;
  const notFoundBefore = await notFound();
  const gone = await proc.post({ domain: 'reload', descriptors: [D('block', 'x')] });
  t.same(gone.json, response('OK', [NO_LIMIT]), 'unknown domain again');
  t.equal((await notFound()) - notFoundBefore, 1, 'domain_not_found +1');
  t.equal(await proc.stat('ratelimit.service.config_load_error'), 0);
});

t.test('a broken file keeps the old configuration answering; /stats shows config_load_error: 1', async (t) => {
  const temp = await tempDir(t, 'rl-reload-');
  const root = join(temp, 'root');
  const configDir = join(root, 'config');
  await writeTree(root, { 'basic.yaml': fixture('basic.yaml') });
  const proc = await startProcess(t, { RUNTIME_ROOT: root, RUNTIME_WATCH_ROOT: 'false', RUNTIME_WATCH_POLL_INTERVAL: '100ms' });

  // Renamed in from outside the watched directory, so the file appears whole in one event.
  await writeFile(join(temp, 'broken.yaml'), "'''\n");
  await rename(join(temp, 'broken.yaml'), join(configDir, 'broken.yaml'));
  const stats = await waitFor(
    '/stats to show a config load error',
    async () => {
      const text = (await proc.debug('/stats')).text;
      return /^ratelimit\.service\.config_load_error: [1-9]/m.test(text) ? text : undefined;
    },
    RELOAD_TIMEOUT_MS,
  );
  t.match(stats, /^ratelimit\.service\.config_load_error: 1$/m);
  t.match(stats, /^ratelimit\.service\.config_load_success: 1$/m);
  t.match(proc.stderr, /Error loading new configuration: broken\.yaml: error loading config file: yaml: line 2: found unexpected end of stream/);

  const r = await proc.post({ domain: 'basic', descriptors: [D('key1', 'still')] });
  t.equal(r.status, 200, 'the old configuration still answers');
  t.same(r.json, response('OK', [ok(50, 'SECOND', 49, 1)]));
  t.match((await proc.debug('/rlconfig')).text, /^basic\.key1: unit=SECOND requests_per_unit=50, shadow_mode: false, quota_mode: false$/m);
  t.equal((await proc.request('/healthcheck')).status, 200, 'still healthy');

  // Fixing it (removing the broken file) loads again.
  await unlink(join(configDir, 'broken.yaml'));
  await waitFor('a successful load after the fix', async () => (await proc.stat('ratelimit.service.config_load_success')) === 2, RELOAD_TIMEOUT_MS);
  t.equal(await proc.stat('ratelimit.service.config_load_error'), 1);
});
