import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { failed, ok, type Result } from '../errors/index.js';
import type { ConfigSource } from './model.js';

/** Upstream's RUNTIME_* settings that say where configuration files live. */
export interface RuntimeLocation {
  /** RUNTIME_ROOT, usually a symlink swapped on deploy. */
  runtimeRoot: string;
  /** RUNTIME_SUBDIRECTORY, may be ''. */
  runtimeSubdirectory: string;
  /** RUNTIME_APPDIRECTORY. */
  runtimeAppDirectory: string;
  /** RUNTIME_WATCH_ROOT. */
  watchRoot: boolean;
}

export interface FileSourceSettings extends RuntimeLocation {
  /** RUNTIME_IGNOREDOTFILES: skip dot files and dot directories (k8s ConfigMap `..data`). */
  ignoreDotFiles: boolean;
  /** CONFIG_MAX_BYTES: the files together may be no larger; checked by size before any is read. */
  maxBytes: number;
}

/**
 * The directory upstream's runtime loader (goruntime) reads, and the prefix a file's name
 * must have to count as configuration:
 * - watchRoot: root RUNTIME_ROOT/RUNTIME_SUBDIRECTORY, names `config.basic.yaml`;
 * - otherwise: root RUNTIME_ROOT/RUNTIME_SUBDIRECTORY/RUNTIME_APPDIRECTORY, names `basic.yaml`.
 */
export function loaderRoot(location: RuntimeLocation): { root: string; namePrefix: string } {
  const base = join(location.runtimeRoot, location.runtimeSubdirectory);
  if (location.watchRoot) return { root: base, namePrefix: location.runtimeAppDirectory.split('/').join('.') + '.' };
  return { root: join(base, location.runtimeAppDirectory), namePrefix: '' };
}

/**
 * Reads every configuration file, recursively, whatever its extension (every file is YAML to
 * upstream). A file's name is its path relative to the loader root with `/` replaced by `.`.
 * Symlinks are followed. Sorted by name, so loads are deterministic (upstream's order is Go map
 * order). A missing or unreadable directory is an error, never "no rules": a root symlink swapped
 * to a directory that is not there must not drop every rule. Sizes are added up before anything
 * is read, so an oversized file is refused without being loaded into memory.
 */
export async function readConfigSources(settings: FileSourceSettings): Promise<Result<ConfigSource[], 'CFG_UNREADABLE' | 'CFG_TOO_LARGE'>> {
  const { root, namePrefix } = loaderRoot(settings);
  const files: FoundFile[] = [];
  try {
    await walk(root, new Set(), { root, namePrefix, ignoreDotFiles: settings.ignoreDotFiles, files });
  } catch (error) {
    return failed('CFG_UNREADABLE', `cannot read the configuration directory: ${(error as Error).message}`);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > settings.maxBytes) {
    const largest = files.reduce((a, b) => (b.size > a.size ? b : a));
    return failed('CFG_TOO_LARGE', `configuration files are ${total} bytes, more than CONFIG_MAX_BYTES (${settings.maxBytes}); the largest is ${largest.name} (${largest.size} bytes)`);
  }
  const sources: ConfigSource[] = [];
  for (const file of files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    // A file that vanished since the walk is skipped, not an error: the next change reloads.
    const text = await readFile(file.path, 'utf8').catch(() => undefined);
    if (text !== undefined) sources.push({ name: file.name, text });
  }
  return ok(sources);
}

interface FoundFile {
  path: string;
  name: string;
  size: number;
}

interface WalkContext {
  root: string;
  namePrefix: string;
  ignoreDotFiles: boolean;
  files: FoundFile[];
}

/** `ancestors` holds the real paths of the directories above, so a symlink loop ends. Throws when `dir` cannot be listed. */
async function walk(dir: string, ancestors: ReadonlySet<string>, ctx: WalkContext): Promise<void> {
  const real = await realpath(dir);
  if (ancestors.has(real)) return;
  const entries = await readdir(dir);
  const inside = new Set(ancestors).add(real);
  for (const entry of entries) {
    if (ctx.ignoreDotFiles && entry.startsWith('.')) continue;
    const path = join(dir, entry);
    const name = relative(ctx.root, path).split(sep).join('.');
    // A vanished file or a dangling symlink is skipped, not an error: the next change reloads.
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      if (couldContain(name, ctx.namePrefix)) await walk(path, inside, ctx);
    } else if (info?.isFile() && name.startsWith(ctx.namePrefix)) {
      ctx.files.push({ path, name, size: info.size });
    }
  }
}

/** Whether files under directory `name` can have names starting with `prefix`. */
function couldContain(name: string, prefix: string): boolean {
  return name.startsWith(prefix) || prefix.startsWith(name + '.');
}
