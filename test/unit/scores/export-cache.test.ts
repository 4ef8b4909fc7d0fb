/**
 * The export cache on real files with a clock the test sets: it keeps at most its bytes by removing
 * the least recently used revisions' folders, an account's own first past its share, and never a
 * revision used in the last RECENT_USE_MS (a file the HTTP front is about to open) or one a job
 * holds; a restart finds what is on disk and goes on counting it.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ExportCache, RECENT_USE_MS, type ExportCacheOptions } from '../../../src/scores/exports/export-cache.js';
import { tempDir } from '../../support/temp-dir.js';

interface Harness {
  cache: ExportCache;
  dir: string;
  clock: { now: number };
  /** Writes `bytes` bytes as `name` of the revision, owned by `owner`. */
  write(revisionId: string, owner: string, bytes: number, name?: string): Promise<void>;
  /** Whether the revision's folder is still on disk. */
  kept(revisionId: string): boolean;
}

async function harness(t: Test, options: Partial<ExportCacheOptions> = {}, dir?: string): Promise<Harness> {
  const clock = { now: 1_000_000 };
  const folder = dir ?? (await tempDir(t, 'export-cache-'));
  const cache = new ExportCache({ dir: folder, maxBytes: 1000, accountShare: 1, now: () => clock.now, ...options });
  return {
    cache,
    dir: folder,
    clock,
    write: async (revisionId, owner, bytes, name = 'audio.wav') => void (await cache.write(revisionId, owner, name, new Uint8Array(bytes))),
    kept: (revisionId) => existsSync(join(folder, revisionId)),
  };
}

t.test('past its bytes, the least recently used revisions are removed from disk', async (t) => {
  const h = await harness(t);
  await h.write('a', 'alice', 400);
  h.clock.now += RECENT_USE_MS;
  await h.write('b', 'bob', 400);
  h.clock.now += RECENT_USE_MS;
  await h.cache.file('a', 'audio.wav'); // a is now more recently used than b
  h.clock.now += RECENT_USE_MS;
  await h.write('c', 'carol', 400);
  t.notOk(h.kept('b'), 'b, the least recently used, is gone');
  t.ok(h.kept('a') && h.kept('c'), 'a and c fit in 1000 bytes');
  t.equal(await h.cache.file('b', 'audio.wav'), undefined, 'and the cache says so');
  t.match(await h.cache.file('a', 'audio.wav'), { file: join(h.dir, 'a', 'audio.wav'), size: 400 });
});

t.test('a revision used in the last RECENT_USE_MS, or held by a job, is never removed', async (t) => {
  const h = await harness(t);
  await h.write('a', 'alice', 600);
  h.clock.now += RECENT_USE_MS - 1;
  await h.write('b', 'bob', 600);
  t.ok(h.kept('a') && h.kept('b'), 'a was used a moment ago (its file may be on its way to a client): the bound waits');
  const release = await h.cache.hold('a');
  h.clock.now += 2 * RECENT_USE_MS;
  await h.write('c', 'carol', 300);
  t.ok(h.kept('a'), 'a job holds a: kept');
  t.notOk(h.kept('b'), 'b goes instead');
  release();
  h.clock.now += 2 * RECENT_USE_MS;
  await h.write('d', 'dave', 300);
  t.notOk(h.kept('a'), 'released and old, a goes');
  t.ok(h.kept('c') && h.kept('d'));
});

t.test("past its share, an account's own least recently used revisions go first", async (t) => {
  const h = await harness(t, { accountShare: 0.5 });
  await h.write('bob-1', 'bob', 200);
  h.clock.now += RECENT_USE_MS;
  await h.write('alice-1', 'alice', 300);
  h.clock.now += RECENT_USE_MS;
  await h.write('alice-2', 'alice', 300);
  t.notOk(h.kept('alice-1'), "alice's 600 bytes passed her 500: her older revision went");
  t.ok(h.kept('bob-1'), "though bob's is older, it is within his share and the whole cache");
  t.ok(h.kept('alice-2'));
});

t.test('a restart finds the files on disk, their sizes and owners, and goes on from them', async (t) => {
  const first = await harness(t, { accountShare: 0.5 });
  await first.write('alice-1', 'alice', 300);
  await first.write('bob-1', 'bob', 300);
  const second = await harness(t, { accountShare: 0.5 }, first.dir);
  t.match(await second.cache.file('alice-1', 'audio.wav'), { size: 300 }, 'the file is served after the restart');
  second.clock.now += RECENT_USE_MS;
  await second.write('alice-2', 'alice', 300);
  t.notOk(second.kept('alice-1'), "alice's earlier revision counted against her share after the restart");
  second.clock.now += RECENT_USE_MS;
  await second.write('carol-1', 'carol', 450);
  t.notOk(second.kept('bob-1'), "and bob's against the whole cache");
  t.ok(second.kept('alice-2') && second.kept('carol-1'));
});

t.test('removed revisions lose their files; a temporary file becomes a counted file on commit', async (t) => {
  const h = await harness(t);
  const temporary = await h.cache.temporary('a', 'audio.wav');
  t.match(temporary, /audio\.wav\.[0-9a-f]{12}\.tmp$/, 'a temporary name in the revision folder');
  await writeFile(temporary, new Uint8Array(700));
  t.same(await h.cache.commit('a', 'alice', temporary, 'audio.wav'), { file: join(h.dir, 'a', 'audio.wav'), size: 700 });
  t.notOk(existsSync(temporary), 'renamed into place');
  await h.cache.remove(['a']);
  t.notOk(h.kept('a'));
  h.clock.now += RECENT_USE_MS;
  await h.write('b', 'bob', 900);
  t.ok(h.kept('b'), 'the removed bytes no longer count');
});
