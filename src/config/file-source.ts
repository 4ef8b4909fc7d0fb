import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
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
 * Symlinks are followed; a missing directory gives no sources. Sorted by name, so loads are
 * deterministic (upstream's order is Go map order).
 */
export async function readConfigSources(settings: FileSourceSettings): Promise<ConfigSource[]> {
  const { root, namePrefix } = loaderRoot(settings);
  const sources: ConfigSource[] = [];
  await walk(root, new Set(), { root, namePrefix, ignoreDotFiles: settings.ignoreDotFiles, sources });
  return sources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface WalkContext {
  root: string;
  namePrefix: string;
  ignoreDotFiles: boolean;
  sources: ConfigSource[];
}

/** `ancestors` holds the real paths of the directories above, so a symlink loop ends. */
async function walk(dir: string, ancestors: ReadonlySet<string>, ctx: WalkContext): Promise<void> {
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined || ancestors.has(real)) return;
  const entries = await readdir(dir).catch(() => [] as string[]);
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
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text !== undefined) ctx.sources.push({ name, text });
    }
  }
}

/** Whether files under directory `name` can have names starting with `prefix`. */
function couldContain(name: string, prefix: string): boolean {
  return name.startsWith(prefix) || prefix.startsWith(name + '.');
}
