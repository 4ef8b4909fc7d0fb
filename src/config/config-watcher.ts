import { readdirSync, realpathSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loaderRoot, type RuntimeLocation } from './file-source.js';

export interface ConfigWatcherOptions extends RuntimeLocation {
  /** Called once per burst of changes; must not throw (it runs from a timer). */
  onChange: () => void;
  /** Changes closer together than this give one call. Default 100 ms. */
  debounceMs?: number;
  /** Period of the fallback check (see ConfigWatcher). Default 1000 ms. */
  pollIntervalMs?: number;
}

const DEFAULT_DEBOUNCE_MS = 100;
const DEFAULT_POLL_INTERVAL_MS = 1000;

/**
 * Tells when the configuration files may have changed, as upstream's runtime loader does:
 *
 * - watchRoot=true: only when RUNTIME_ROOT (a symlink) is swapped to another directory. We watch
 *   the symlink's parent directory and compare RUNTIME_ROOT's real path. fs.watch misses some
 *   swaps (e.g. when an ancestor of the root is the symlink), so a poll compares it too.
 * - watchRoot=false: any write, create, chmod, remove or rename under the app directory. The
 *   directory itself is watched (not recursively: Node 20's recursive watcher on Linux loses a
 *   file once it is renamed over, the usual way to replace a config atomically); the poll
 *   compares every file's mtime, size and mode below it, which catches nested changes, and
 *   notices the directory appearing, disappearing or being replaced.
 *
 * Missing directories are never an error: there is nothing to watch until they appear.
 * Timers and watchers are unref'd, so a forgotten watcher does not keep the process alive.
 */
export class ConfigWatcher {
  private readonly debounceMs: number;
  private readonly pollIntervalMs: number;
  private watcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  /** watchRoot: RUNTIME_ROOT's real path; otherwise the app directory's identity. */
  private lastSeen: string | undefined;
  /** watchRoot=false: every file's path, mtime, size and mode under the app directory. */
  private lastTree = '';
  private started = false;
  private closed = false;

  constructor(private readonly options: ConfigWatcherOptions) {
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  }

  /** Starts watching from the current state; changes before this call are not reported. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.lastSeen = this.observe();
    this.lastTree = this.treeSignature();
    this.attach();
    this.pollTimer = setInterval(() => this.poll(), this.pollIntervalMs);
    this.pollTimer.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.debounceTimer);
    this.detach();
  }

  /** What a change is measured against (undefined when the path does not exist). */
  private observe(): string | undefined {
    try {
      if (this.options.watchRoot) return realpathSync(this.options.runtimeRoot);
      // Inode numbers are reused at once (ext4), so a re-created directory differs only by birth time.
      const info = statSync(this.watchedPath());
      return info.isDirectory() ? `${info.dev}:${info.ino}:${info.birthtimeMs}` : undefined;
    } catch {
      return undefined;
    }
  }

  /** The parent of RUNTIME_ROOT (watchRoot), or the app directory. */
  private watchedPath(): string {
    if (this.options.watchRoot) return dirname(resolve(this.options.runtimeRoot));
    return loaderRoot(this.options).root;
  }

  private attach(): void {
    if (this.watcher !== undefined || this.closed) return;
    const onEvent = (): void => (this.options.watchRoot ? this.poll() : this.schedule());
    const path = this.watchedPath();
    try {
      this.watcher = watch(path, onEvent);
    } catch {
      return; // missing: the poll attaches once it exists
    }
    this.watcher.unref();
    this.watcher.on('error', () => {
      this.detach();
      // Changes until the poll re-attaches would be missed in the app directory: reload once.
      if (!this.options.watchRoot) this.schedule();
    });
  }

  private detach(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Compares the observed state with the last one; also re-attaches a lost watcher. */
  private poll(): void {
    if (this.closed) return;
    const now = this.observe();
    if (now !== this.lastSeen) {
      this.lastSeen = now;
      // A replaced app directory needs a new watcher; the parent of the root does not.
      if (!this.options.watchRoot) this.detach();
      this.schedule();
    } else if (!this.options.watchRoot && this.treeSignature() !== this.lastTree) {
      this.schedule();
    }
    this.attach();
  }

  /** A text that changes when any file under the app directory changes (watchRoot=false only). */
  private treeSignature(): string {
    if (this.options.watchRoot) return '';
    const parts: string[] = [];
    const walk = (dir: string, depth: number): void => {
      let names: string[];
      try {
        names = readdirSync(dir).sort();
      } catch {
        return;
      }
      for (const name of names) {
        const path = join(dir, name);
        try {
          const info = statSync(path);
          if (info.isDirectory()) {
            if (depth < 16) walk(path, depth + 1);
          } else {
            parts.push(`${path}:${info.mtimeMs}:${info.size}:${info.mode}`);
          }
        } catch {
          // vanished between readdir and stat: the next poll sees the result
        }
      }
    };
    walk(this.watchedPath(), 0);
    return parts.join('\n');
  }

  private schedule(): void {
    if (this.closed || this.debounceTimer !== undefined) return;
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      if (this.closed) return;
      // What this reload will read; the poll then does not report the same change again.
      this.lastTree = this.treeSignature();
      this.options.onChange();
    }, this.debounceMs);
    this.debounceTimer.unref();
  }
}
