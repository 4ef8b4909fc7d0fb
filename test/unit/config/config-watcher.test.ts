import { appendFileSync, chmodSync, copyFileSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { ConfigWatcher, loadConfig, readConfigSources, type ConfigWatcherOptions } from '../../../src/config/index.js';
import { Unit } from '../../../src/engine/units.js';
import { FIXTURES_DIR } from '../../fixtures/config/index.js';
import type { Teardown } from '../../support/teardown.js';
import { tempDirSync } from '../../support/temp-dir.js';

/** How long a test waits for an expected call before failing; never slept unconditionally. */
const CHANGE_TIMEOUT_MS = 3000;
/** How long a test watches for a call that must not come. */
const QUIET_MS = 250;

/** Counts onChange calls; `next()` resolves on the next one (arm it before acting). */
class ChangeRecorder {
  count = 0;
  private waiters: Array<() => void> = [];

  readonly onChange = (): void => {
    this.count++;
    for (const resolve of this.waiters.splice(0)) resolve();
  };

  next(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no onChange within timeout')), CHANGE_TIMEOUT_MS);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

type Location = Pick<ConfigWatcherOptions, 'runtimeRoot' | 'runtimeSubdirectory' | 'runtimeAppDirectory' | 'watchRoot'>;

function startWatcher(
  t: Teardown,
  location: Location,
  timing: { debounceMs?: number; pollIntervalMs?: number } = {},
): ChangeRecorder {
  const recorder = new ChangeRecorder();
  const watcher = new ConfigWatcher({ ...location, debounceMs: 20, pollIntervalMs: 5000, ...timing, onChange: recorder.onChange });
  watcher.start();
  t.teardown(() => watcher.close());
  return recorder;
}

/** base/v1 and base/v2, each with ratelimit/config/, and base/current -> v1. */
function versionedRoot(t: Teardown): string {
  const base = tempDirSync(t, 'rl-watch-root-');
  for (const v of ['v1', 'v2']) mkdirSync(join(base, v, 'ratelimit', 'config'), { recursive: true });
  symlinkSync(join(base, 'v1'), join(base, 'current'));
  return base;
}

/** Swaps a symlink atomically, as deploy tools do (new link, then rename over the old one). */
function swapSymlink(link: string, target: string): void {
  symlinkSync(target, `${link}.tmp`);
  renameSync(`${link}.tmp`, link);
}

function appDirLocation(base: string): Location {
  return { runtimeRoot: base, runtimeSubdirectory: 'ratelimit', runtimeAppDirectory: 'config', watchRoot: false };
}

t.test('watchRoot: swapping the RUNTIME_ROOT symlink fires onChange', async (t) => {
  const base = versionedRoot(t);
  const root = join(base, 'current');
  const changes = startWatcher(t, { runtimeRoot: root, runtimeSubdirectory: 'ratelimit', runtimeAppDirectory: 'config', watchRoot: true });
  const changed = changes.next();
  swapSymlink(root, join(base, 'v2'));
  await changed;
  t.equal(changes.count, 1);

  // Edits inside the current version are not a swap: upstream ignores them in this mode.
  writeFileSync(join(base, 'v2', 'ratelimit', 'config', 'a.yaml'), 'domain: a\n');
  await sleep(QUIET_MS);
  t.equal(changes.count, 1, 'no call for an in-place edit');

  const back = changes.next();
  swapSymlink(root, join(base, 'v1'));
  await back;
  t.equal(changes.count, 2);
});

t.test('watchRoot: the poll catches a swap fs.watch cannot see (a symlinked ancestor)', async (t) => {
  // RUNTIME_ROOT is link/current; swapping `link` changes nothing in the watched directory.
  const base = tempDirSync(t, 'rl-watch-poll-');
  for (const v of ['a', 'b']) mkdirSync(join(base, v, 'current'), { recursive: true });
  symlinkSync(join(base, 'a'), join(base, 'link'));
  const changes = startWatcher(
    t,
    { runtimeRoot: join(base, 'link', 'current'), runtimeSubdirectory: '', runtimeAppDirectory: 'config', watchRoot: true },
    { pollIntervalMs: 30 },
  );
  const changed = changes.next();
  swapSymlink(join(base, 'link'), join(base, 'b'));
  await changed;
  t.equal(changes.count, 1);
});

t.test('watchRoot: a missing RUNTIME_ROOT is not an error; its appearance is a change', async (t) => {
  const base = tempDirSync(t, 'rl-watch-missing-root-');
  const changes = startWatcher(
    t,
    { runtimeRoot: join(base, 'current'), runtimeSubdirectory: '', runtimeAppDirectory: 'config', watchRoot: true },
    { pollIntervalMs: 30 },
  );
  mkdirSync(join(base, 'v1'));
  const changed = changes.next();
  symlinkSync(join(base, 'v1'), join(base, 'current'));
  await changed;
  t.equal(changes.count, 1);
});

t.test('app directory: create, write, chmod, rename and remove each fire onChange', async (t) => {
  const base = tempDirSync(t, 'rl-watch-dir-');
  const dir = join(base, 'ratelimit', 'config');
  mkdirSync(join(dir, 'nested'), { recursive: true });
  // Nested changes are seen by the poll (the directory itself is watched, not recursively).
  const changes = startWatcher(t, appDirLocation(base), { pollIntervalMs: 200 });
  const file = join(dir, 'a.yaml');
  const steps: Array<[string, () => void]> = [
    ['create', () => writeFileSync(file, 'domain: a\n')],
    ['write', () => appendFileSync(file, 'descriptors: []\n')],
    ['chmod', () => chmodSync(file, 0o600)],
    ['rename', () => renameSync(file, join(dir, 'b.yaml'))],
    ['remove', () => unlinkSync(join(dir, 'b.yaml'))],
    ['create in a subdirectory', () => writeFileSync(join(dir, 'nested', 'c.yaml'), 'domain: c\n')],
  ];
  for (const [what, step] of steps) {
    const before = changes.count;
    const changed = changes.next();
    step();
    await changed;
    t.equal(changes.count, before + 1, what);
  }
});

t.test('app directory: a file renamed over again and again reloads every time', async (t) => {
  // Regression: Node 20's recursive fs.watch on Linux went silent after the first rename-over.
  const base = tempDirSync(t, 'rl-watch-rename-over-');
  const dir = join(base, 'ratelimit', 'config');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.yaml'), 'domain: a\n');
  const changes = startWatcher(t, appDirLocation(base));
  for (let i = 1; i <= 3; i++) {
    const changed = changes.next();
    writeFileSync(join(base, `next-${i}.yaml`), `domain: a${i}\n`);
    renameSync(join(base, `next-${i}.yaml`), join(dir, 'a.yaml'));
    await changed;
    t.equal(changes.count, i, `rename-over ${i}`);
  }
});

t.test('app directory: a burst of changes gives one call', async (t) => {
  const base = tempDirSync(t, 'rl-watch-burst-');
  const dir = join(base, 'ratelimit', 'config');
  mkdirSync(dir, { recursive: true });
  const changes = startWatcher(t, appDirLocation(base), { debounceMs: 100 });
  const changed = changes.next();
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.yaml`), 'domain: x\n');
  await changed;
  await sleep(QUIET_MS);
  t.equal(changes.count, 1);
});

t.test('app directory: missing at start, then created, removed and created again', async (t) => {
  const base = tempDirSync(t, 'rl-watch-late-');
  const dir = join(base, 'ratelimit', 'config');
  const changes = startWatcher(t, appDirLocation(base), { pollIntervalMs: 30 });
  t.equal(changes.count, 0, 'no call and no throw for a missing directory');

  let changed = changes.next();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.yaml'), 'domain: a\n');
  await changed;
  await sleep(QUIET_MS); // let the poll attach a watcher to the new directory
  const afterAppear = changes.count;

  changed = changes.next();
  writeFileSync(join(dir, 'b.yaml'), 'domain: b\n');
  await changed;
  t.equal(changes.count, afterAppear + 1, 'the new directory is watched');

  // Removed and re-created between two polls; ext4 typically hands out the same inode number.
  changed = changes.next();
  rmSync(dir, { recursive: true });
  mkdirSync(dir);
  await changed;
  t.pass('a re-created directory is noticed');

  await sleep(QUIET_MS);
  changed = changes.next();
  writeFileSync(join(dir, 'c.yaml'), 'domain: c\n');
  await changed;
  t.pass('and watched');
});

t.test('close stops every call, including one already scheduled', async (t) => {
  const base = tempDirSync(t, 'rl-watch-close-');
  const dir = join(base, 'ratelimit', 'config');
  mkdirSync(dir, { recursive: true });
  const changes = new ChangeRecorder();
  const watcher = new ConfigWatcher({ ...appDirLocation(base), debounceMs: 150, pollIntervalMs: 20, onChange: changes.onChange });
  watcher.start();
  writeFileSync(join(dir, 'a.yaml'), 'domain: a\n');
  await sleep(50); // the event has arrived; the call waits for the debounce
  watcher.close();
  writeFileSync(join(dir, 'b.yaml'), 'domain: b\n');
  await sleep(QUIET_MS);
  t.equal(changes.count, 0);
  watcher.close();
  t.pass('closing twice is harmless');
});

// As upstream's integration test for config reloads: adding reload.yaml loads the `reload`
// domain; deleting it reloads again.
t.test('reload flow: watcher + file source + loader', async (t) => {
  const base = tempDirSync(t, 'rl-watch-reload-');
  const dir = join(base, 'ratelimit', 'config');
  mkdirSync(dir, { recursive: true });
  const location = appDirLocation(base);
  const load = async () => {
    const sources = await readConfigSources({ ...location, ignoreDotFiles: false, maxBytes: 1024 * 1024 });
    if (!sources.ok) throw new Error(sources.error.message);
    return loadConfig(sources.value, { mergeDomainConfigs: false });
  };
  t.same(await load(), { ok: true, value: { domains: [] } }, 'no files: no domains');

  const changes = startWatcher(t, location);
  let changed = changes.next();
  copyFileSync(new URL('reload.yaml', FIXTURES_DIR), join(dir, 'reload.yaml'));
  await changed;
  const loaded = await load();
  if (!loaded.ok) throw new Error(loaded.error.message);
  const [domain] = loaded.value.domains;
  t.equal(domain?.domain, 'reload');
  t.same(
    domain?.descriptors.map((d) => [d.key, d.rateLimit?.requestsPerUnit, d.rateLimit?.unit]),
    [
      ['key1', 50, Unit.SECOND],
      ['block', 0, Unit.SECOND],
      ['one_per_minute', 1, Unit.MINUTE],
    ],
  );

  changed = changes.next();
  unlinkSync(join(dir, 'reload.yaml'));
  await changed;
  t.same(await load(), { ok: true, value: { domains: [] } }, 'deleted: no domains again');
});
