import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Quota, QuotaRefusal } from '../accounts/quota.js';
import type { Upload, UploadStore } from '../files/uploads.js';

/** Where the descriptions of uploads are kept: a table of the score database (SQLite or PostgreSQL). */
export interface UploadIndex {
  /** Describes the upload when it fits its owner's quota, checked in the same transaction; else says why. */
  add(upload: Upload, quota: Quota): QuotaRefusal | undefined | Promise<QuotaRefusal | undefined>;
  find(id: string): Upload | undefined | Promise<Upload | undefined>;
  drop(id: string): void | Promise<void>;
}

/**
 * Uploaded bytes as files under `dir` (written, synced and renamed into place), described by a
 * row of the score database written after them. With PostgreSQL, `dir` is a folder every
 * instance reads.
 */
export class DiskUploadStore implements UploadStore {
  constructor(
    private readonly index: UploadIndex,
    private readonly dir: string,
  ) {}

  async save(upload: Upload, bytes: Uint8Array, quota: Quota): Promise<QuotaRefusal | undefined> {
    await mkdir(this.dir, { recursive: true });
    const temporary = join(this.dir, `${upload.id}.tmp`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    const path = join(this.dir, upload.id);
    await rename(temporary, path);
    // The quota is checked with the description, atomically; a refused file was never described,
    // so nobody could have read it before it goes.
    const refused = await this.index.add(upload, quota);
    if (refused !== undefined) await rm(path, { force: true });
    return refused;
  }

  describe(id: string): Upload | undefined | Promise<Upload | undefined> {
    return this.index.find(id);
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    // Only described ids reach the file system: a path parameter never names another file.
    if ((await this.index.find(id)) === undefined) return undefined;
    return readFile(join(this.dir, id));
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      await this.index.drop(id);
      await rm(join(this.dir, id), { force: true });
    }
  }
}
