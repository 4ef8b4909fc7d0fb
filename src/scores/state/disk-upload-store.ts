import type Database from 'better-sqlite3';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Upload, UploadPurpose, UploadStore } from '../files/uploads.js';

interface UploadRow {
  id: string;
  owner_id: string;
  purpose: string;
  content_type: string;
  size: number;
  creation_date: number;
}

/**
 * Uploaded bytes as files under `dir` (written, synced and renamed into place), described by a
 * row of the score database written after them.
 */
export class DiskUploadStore implements UploadStore {
  private readonly insert: Database.Statement<[string, string, string, string, number, number]>;
  private readonly select: Database.Statement<[string], UploadRow>;
  private readonly drop: Database.Statement<[string]>;

  constructor(
    db: Database.Database,
    private readonly dir: string,
  ) {
    this.insert = db.prepare('INSERT INTO uploads (id, owner_id, purpose, content_type, size, creation_date) VALUES (?, ?, ?, ?, ?, ?)');
    this.select = db.prepare('SELECT * FROM uploads WHERE id = ?');
    this.drop = db.prepare('DELETE FROM uploads WHERE id = ?');
  }

  async save(upload: Upload, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const temporary = join(this.dir, `${upload.id}.tmp`);
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, join(this.dir, upload.id));
    this.insert.run(upload.id, upload.ownerId, upload.purpose, upload.contentType, upload.size, upload.creationDate);
  }

  describe(id: string): Upload | undefined {
    const row = this.select.get(id);
    if (row === undefined) return undefined;
    return { id: row.id, ownerId: row.owner_id, purpose: row.purpose as UploadPurpose, contentType: row.content_type, size: row.size, creationDate: row.creation_date };
  }

  async read(id: string): Promise<Uint8Array | undefined> {
    if (this.select.get(id) === undefined) return undefined;
    return readFile(join(this.dir, id));
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.drop.run(id);
      await rm(join(this.dir, id), { force: true });
    }
  }
}
