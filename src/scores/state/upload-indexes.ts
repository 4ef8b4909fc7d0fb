import type Database from 'better-sqlite3';
import type pg from 'pg';
import { quotaRefusal, type Quota, type QuotaRefusal, type Usage } from '../accounts/quota.js';
import type { Upload, UploadPurpose } from '../files/uploads.js';
import { lockedUsage, usageSql } from './account-usage.js';
import type { UploadIndex } from './disk-upload-store.js';
import { inTransaction } from './pg-database.js';

interface UploadRow {
  id: string;
  owner_id: string;
  purpose: string;
  content_type: string;
  size: number;
  creation_date: number;
}

function uploadOf(row: UploadRow): Upload {
  return { id: row.id, ownerId: row.owner_id, purpose: row.purpose as UploadPurpose, contentType: row.content_type, size: row.size, creationDate: row.creation_date };
}

const INSERT = 'INSERT INTO uploads (id, owner_id, purpose, content_type, size, creation_date) VALUES ';
const values = (u: Upload) => [u.id, u.ownerId, u.purpose, u.contentType, u.size, u.creationDate] as const;

export class SqliteUploadIndex implements UploadIndex {
  private readonly insert: Database.Transaction<(upload: Upload, quota: Quota) => QuotaRefusal | undefined>;
  private readonly select: Database.Statement<[string], UploadRow>;
  private readonly remove: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    const insert = db.prepare<[string, string, string, string, number, number]>(`${INSERT}(?, ?, ?, ?, ?, ?)`);
    const usage = db.prepare<[{ owner: string }], Usage>(usageSql('@owner'));
    this.insert = db.transaction((upload: Upload, quota: Quota) => {
      const refused = quotaRefusal(quota, usage.get({ owner: upload.ownerId }) as Usage, upload.size, 1);
      if (refused === undefined) insert.run(...values(upload));
      return refused;
    });
    this.select = db.prepare('SELECT * FROM uploads WHERE id = ?');
    this.remove = db.prepare('DELETE FROM uploads WHERE id = ?');
  }

  add(upload: Upload, quota: Quota): QuotaRefusal | undefined {
    return this.insert.immediate(upload, quota);
  }

  find(id: string): Upload | undefined {
    const row = this.select.get(id);
    return row === undefined ? undefined : uploadOf(row);
  }

  drop(id: string): void {
    this.remove.run(id);
  }
}

export class PgUploadIndex implements UploadIndex {
  constructor(private readonly pool: pg.Pool) {}

  add(upload: Upload, quota: Quota): Promise<QuotaRefusal | undefined> {
    return inTransaction(this.pool, async (client) => {
      const refused = quotaRefusal(quota, await lockedUsage(client, upload.ownerId), upload.size, 1);
      if (refused === undefined) await client.query(`${INSERT}($1, $2, $3, $4, $5, $6)`, [...values(upload)]);
      return refused;
    });
  }

  async find(id: string): Promise<Upload | undefined> {
    const { rows } = await this.pool.query<UploadRow>('SELECT * FROM uploads WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : uploadOf(rows[0]);
  }

  async drop(id: string): Promise<void> {
    await this.pool.query('DELETE FROM uploads WHERE id = $1', [id]);
  }
}
