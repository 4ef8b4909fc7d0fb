import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** A produced file as the API answers with it: the HTTP front streams it from disk. */
export interface ExportedFile {
  /** Absolute path. */
  file: string;
  size: number;
}

export interface ExportCacheOptions {
  dir: string;
  /** SCORES_EXPORT_CACHE_BYTES */
  maxBytes: number;
  /** SCORES_EXPORT_CACHE_ACCOUNT_SHARE: of maxBytes, what one account's revisions may hold. */
  accountShare: number;
  now: () => number;
}

/**
 * A revision used this recently is never evicted: the API thread names a file and the HTTP front
 * opens it a moment later, on another thread; once open, a removed file still reads whole.
 */
export const RECENT_USE_MS = 10_000;

/** Who a revision's files are counted against, kept beside them for the next start. */
const OWNER_FILE = '.owner';

interface CachedRevision {
  owner: string | undefined;
  /** Bytes of each file, by name. */
  files: Map<string, number>;
  bytes: number;
  lastUsed: number;
  /** Jobs producing its files now: their inputs and temporary files must stay. */
  holds: number;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Produced files, one folder per revision under the data directory, at most `maxBytes` of them:
 * when a new file passes that (or its account's share), the least recently used revisions' folders
 * are removed, never one in use (see RECENT_USE_MS) or being produced. Revisions never change, so a
 * file once written is valid until its score is deleted or it is evicted. Writes go to a temporary
 * name and are renamed into place: a reader never sees half a file, even from another instance
 * sharing the folder (each instance keeps the bound over the files it knows of).
 */
export class ExportCache {
  private readonly dir: string;
  /** In order of use, least recent first. */
  private readonly revisions = new Map<string, CachedRevision>();
  private readonly accountBytes = new Map<string, number>();
  private totalBytes = 0;
  /** Folders being removed: anything done to the same revision waits for the removal to end. */
  private readonly removing = new Map<string, Promise<void>>();
  private readonly loaded: Promise<void>;

  constructor(private readonly options: ExportCacheOptions) {
    this.dir = resolve(options.dir);
    this.loaded = this.load();
    // Every use awaits `loaded` and sees its failure; this only keeps it from being unhandled meanwhile.
    this.loaded.catch(() => undefined);
  }

  /** The file, if it was produced; counts as a use of its revision. */
  async file(revisionId: string, name: string): Promise<ExportedFile | undefined> {
    await this.settled(revisionId);
    const file = this.path(revisionId, name);
    try {
      const { size } = await stat(file);
      this.record(revisionId, undefined, name, size);
      return { file, size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** A small file's bytes (the engraving's timing), if it was produced. */
  async read(revisionId: string, name: string): Promise<Uint8Array | undefined> {
    const found = await this.file(revisionId, name);
    if (found === undefined) return undefined;
    try {
      return await readFile(found.file);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async write(revisionId: string, owner: string | undefined, name: string, bytes: Uint8Array | string): Promise<ExportedFile> {
    const temporary = await this.temporary(revisionId, name);
    await writeFile(temporary, bytes);
    return this.commit(revisionId, owner, temporary, name);
  }

  /** A new path in the revision's folder for a program to write `name` to, before commit. */
  async temporary(revisionId: string, name: string): Promise<string> {
    await this.settled(revisionId);
    await mkdir(join(this.dir, revisionId), { recursive: true });
    return `${this.path(revisionId, name)}.${randomBytes(6).toString('hex')}.tmp`;
  }

  /** Renames a finished temporary file into place, counts it, and evicts what no longer fits. */
  async commit(revisionId: string, owner: string | undefined, temporary: string, name: string): Promise<ExportedFile> {
    const { size } = await stat(temporary);
    const file = this.path(revisionId, name);
    await rename(temporary, file);
    if (owner !== undefined) await writeFile(join(this.dir, revisionId, OWNER_FILE), owner);
    this.record(revisionId, owner, name, size);
    await this.evict(owner);
    return { file, size };
  }

  /** Keeps the revision's folder while a job produces its files; call the result when done. */
  async hold(revisionId: string): Promise<() => void> {
    await this.settled(revisionId);
    const entry = this.entry(revisionId, undefined);
    entry.holds++;
    return () => {
      entry.holds--;
    };
  }

  async remove(revisionIds: readonly string[]): Promise<void> {
    await this.loaded;
    await Promise.all(revisionIds.map((id) => this.removeFolder(id)));
  }

  private path(revisionId: string, name: string): string {
    return join(this.dir, revisionId, name);
  }

  private async settled(revisionId: string): Promise<void> {
    await this.loaded;
    await this.removing.get(revisionId);
  }

  /** The revision's entry, made the most recently used. */
  private entry(revisionId: string, owner: string | undefined): CachedRevision {
    let entry = this.revisions.get(revisionId);
    if (entry === undefined) entry = { owner, files: new Map(), bytes: 0, lastUsed: 0, holds: 0 };
    else this.revisions.delete(revisionId);
    if (entry.owner === undefined && owner !== undefined) {
      entry.owner = owner;
      this.accountBytes.set(owner, (this.accountBytes.get(owner) ?? 0) + entry.bytes);
    }
    entry.lastUsed = this.options.now();
    this.revisions.set(revisionId, entry);
    return entry;
  }

  private record(revisionId: string, owner: string | undefined, name: string, size: number): void {
    const entry = this.entry(revisionId, owner);
    this.count(entry, size - (entry.files.get(name) ?? 0));
    entry.files.set(name, size);
  }

  private count(entry: CachedRevision, bytes: number): void {
    entry.bytes += bytes;
    this.totalBytes += bytes;
    if (entry.owner !== undefined) this.accountBytes.set(entry.owner, (this.accountBytes.get(entry.owner) ?? 0) + bytes);
  }

  /** The account's share first (its own least recent revisions), then the whole cache. */
  private async evict(owner: string | undefined): Promise<void> {
    const now = this.options.now();
    const evictable = (entry: CachedRevision) => entry.holds === 0 && now - entry.lastUsed >= RECENT_USE_MS;
    const victims: string[] = [];
    const { maxBytes, accountShare } = this.options;
    if (owner !== undefined) {
      for (const [id, entry] of this.revisions) {
        if ((this.accountBytes.get(owner) ?? 0) <= maxBytes * accountShare) break;
        if (entry.owner === owner && evictable(entry)) victims.push(this.forget(id, entry));
      }
    }
    for (const [id, entry] of this.revisions) {
      if (this.totalBytes <= maxBytes) break;
      if (evictable(entry)) victims.push(this.forget(id, entry));
    }
    await Promise.all(victims.map((id) => this.removeFolder(id)));
  }

  /** Stops counting a revision's files (before its folder goes); returns its id. */
  private forget(revisionId: string, entry: CachedRevision): string {
    this.count(entry, -entry.bytes);
    this.revisions.delete(revisionId);
    return revisionId;
  }

  private removeFolder(revisionId: string): Promise<void> {
    const entry = this.revisions.get(revisionId);
    if (entry !== undefined) this.forget(revisionId, entry);
    const removal = rm(join(this.dir, revisionId), { recursive: true, force: true }).finally(() => {
      if (this.removing.get(revisionId) === removal) this.removing.delete(revisionId);
    });
    this.removing.set(revisionId, removal);
    return removal;
  }

  /** What an earlier run left on disk, least recently written first. */
  private async load(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const found: Array<{ id: string; entry: CachedRevision; written: number }> = [];
    for (const id of names) {
      const folder = join(this.dir, id);
      if (!(await stat(folder)).isDirectory()) continue;
      const entry: CachedRevision = { owner: undefined, files: new Map(), bytes: 0, lastUsed: 0, holds: 0 };
      let written = 0;
      for (const name of await readdir(folder)) {
        if (name === OWNER_FILE) {
          entry.owner = (await readFile(join(folder, name), 'utf8')).trim() || undefined;
          continue;
        }
        const facts = await stat(join(folder, name));
        entry.files.set(name, facts.size);
        entry.bytes += facts.size;
        written = Math.max(written, facts.mtimeMs);
      }
      found.push({ id, entry, written });
    }
    // Least recently written first; none of them is in use by this process yet.
    found.sort((a, b) => a.written - b.written);
    for (const { id, entry } of found) {
      const bytes = entry.bytes;
      entry.bytes = 0;
      this.revisions.set(id, entry);
      this.count(entry, bytes);
    }
  }
}
