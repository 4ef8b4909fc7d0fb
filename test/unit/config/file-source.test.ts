import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import t from 'tap';
import { readConfigSources, type ConfigSource, type FileSourceSettings } from '../../../src/config/index.js';
import type { Teardown } from '../../support/teardown.js';
import { tempDirSync } from '../../support/temp-dir.js';

/**
 * A runtime tree as deployed upstream: RUNTIME_ROOT `current` is a symlink to a versioned
 * directory holding RUNTIME_SUBDIRECTORY `ratelimit` and its app directory `config`, with a
 * k8s-style `..data` dot directory, a dot file, a nested directory and a non-YAML name.
 */
function runtimeTree(t: Teardown): string {
  const base = tempDirSync(t, 'rl-file-source-');
  const files: Record<string, string> = {
    'v1/ratelimit/config/basic.yaml': 'domain: basic\n',
    'v1/ratelimit/config/notes.txt': 'domain: notes\n',
    'v1/ratelimit/config/sub/nested.yaml': 'domain: nested\n',
    'v1/ratelimit/config/.hidden.yaml': 'domain: hidden\n',
    'v1/ratelimit/config/..data/basic.yaml': 'domain: basic\n',
    'v1/ratelimit/other/elsewhere.yaml': 'domain: elsewhere\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  }
  symlinkSync(join(base, 'v1'), join(base, 'current'));
  return base;
}

function settings(base: string, overrides: Partial<FileSourceSettings>): FileSourceSettings {
  return {
    runtimeRoot: join(base, 'current'),
    runtimeSubdirectory: 'ratelimit',
    runtimeAppDirectory: 'config',
    watchRoot: true,
    ignoreDotFiles: false,
    maxBytes: 1024 * 1024,
    ...overrides,
  };
}

async function read(s: FileSourceSettings): Promise<ConfigSource[]> {
  const result = await readConfigSources(s);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

async function names(s: FileSourceSettings): Promise<string[]> {
  return (await read(s)).map((source) => source.name);
}

t.test('watchRoot: names relative to RUNTIME_ROOT/RUNTIME_SUBDIRECTORY, only under the app directory', async (t) => {
  const base = runtimeTree(t);
  t.same(await names(settings(base, {})), [
    'config...data.basic.yaml',
    'config..hidden.yaml',
    'config.basic.yaml',
    'config.notes.txt',
    'config.sub.nested.yaml',
  ]);
});

t.test('ignoreDotFiles skips dot files and dot directories', async (t) => {
  const base = runtimeTree(t);
  t.same(await names(settings(base, { ignoreDotFiles: true })), [
    'config.basic.yaml',
    'config.notes.txt',
    'config.sub.nested.yaml',
  ]);
});

t.test('without watchRoot: names relative to the app directory', async (t) => {
  const base = runtimeTree(t);
  t.same(await names(settings(base, { watchRoot: false, ignoreDotFiles: true })), [
    'basic.yaml',
    'notes.txt',
    'sub.nested.yaml',
  ]);
});

t.test('file contents are read through the symlinked root', async (t) => {
  const base = runtimeTree(t);
  const sources = await read(settings(base, { watchRoot: false, ignoreDotFiles: true }));
  t.same(sources[0], { name: 'basic.yaml', text: 'domain: basic\n' });
});

t.test('a file directly in the subdirectory whose name starts with the app directory counts (watchRoot)', async (t) => {
  // Upstream filters names by prefix, so `ratelimit/config.extra.yaml` is read too.
  const base = runtimeTree(t);
  writeFileSync(join(base, 'v1/ratelimit/config.extra.yaml'), 'domain: extra\n');
  t.same(await names(settings(base, { ignoreDotFiles: true })), [
    'config.basic.yaml',
    'config.extra.yaml',
    'config.notes.txt',
    'config.sub.nested.yaml',
  ]);
});

t.test('an empty subdirectory setting uses RUNTIME_ROOT itself', async (t) => {
  const base = runtimeTree(t);
  const s = settings(base, { runtimeRoot: join(base, 'current', 'ratelimit'), runtimeSubdirectory: '', ignoreDotFiles: true });
  t.same(await names(s), ['config.basic.yaml', 'config.notes.txt', 'config.sub.nested.yaml']);
});

t.test('symlinked files and directories are followed; loops and dangling links are skipped', async (t) => {
  const base = runtimeTree(t);
  const config = join(base, 'v1/ratelimit/config');
  symlinkSync(join(config, 'basic.yaml'), join(config, 'linked.yaml'));
  symlinkSync(join(base, 'v1/ratelimit/other'), join(config, 'shared'));
  symlinkSync(config, join(config, 'sub', 'loop'));
  symlinkSync(join(base, 'missing.yaml'), join(config, 'dangling.yaml'));
  t.same(await names(settings(base, { watchRoot: false, ignoreDotFiles: true })), [
    'basic.yaml',
    'linked.yaml',
    'notes.txt',
    'shared.elsewhere.yaml',
    'sub.nested.yaml',
  ]);
});

// A root symlink swapped to a directory that is not there used to load as "no rules".
t.test('a missing directory is an error, not an empty configuration', async (t) => {
  const base = runtimeTree(t);
  const missingRoot = await readConfigSources(settings(base, { runtimeRoot: join(base, 'nowhere') }));
  t.match(missingRoot, { ok: false, error: { code: 'CFG_UNREADABLE', message: /cannot read the configuration directory: ENOENT/ } });
  const missingApp = await readConfigSources(settings(base, { watchRoot: false, runtimeAppDirectory: 'absent' }));
  t.match(missingApp, { ok: false, error: { code: 'CFG_UNREADABLE' } });
  symlinkSync(join(base, 'gone'), join(base, 'dangling'));
  t.match(await readConfigSources(settings(base, { runtimeRoot: join(base, 'dangling') })), { ok: false, error: { code: 'CFG_UNREADABLE' } }, 'a dangling root symlink');
});

t.test('files larger together than CONFIG_MAX_BYTES are refused by size, before reading', async (t) => {
  const base = runtimeTree(t);
  const result = await readConfigSources(settings(base, { watchRoot: false, maxBytes: 16 }));
  t.match(result, { ok: false, error: { code: 'CFG_TOO_LARGE', message: /configuration files are \d+ bytes, more than CONFIG_MAX_BYTES \(16\); the largest is/ } });
});
