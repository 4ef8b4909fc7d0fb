/** Fresh directories under the OS temp dir, each removed with everything in it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Teardown } from './teardown.js';

export interface TempDir {
  path: string;
  /** Removes the directory; harmless when it is already gone. */
  remove(): Promise<void>;
}

/** A directory the caller removes: for a benchmark, or a helper whose clean-up has an order of its own. */
export async function makeTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A directory removed in `t`'s teardown. */
export async function tempDir(t: Teardown, prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  t.teardown(dir.remove);
  return dir.path;
}

/** tempDir for callers that cannot await. */
export function tempDirSync(t: Teardown, prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(path, { recursive: true, force: true }));
  return path;
}
