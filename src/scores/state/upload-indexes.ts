import { quotaRefusal, type Quota, type QuotaRefusal } from '../accounts/quota.js';
import type { Upload } from '../files/uploads.js';
import { lockedUsage } from './account-usage.js';
import { executorOn, type Connection } from './connection.js';
import type { UploadIndex } from './disk-upload-store.js';
import { rowAs, write, type Executor, type Mode, type Outcome } from './plan.js';
import { UPLOAD_QUERIES as Q } from './queries.js';
import { uploadOf } from './rows.js';

/** The descriptions of uploads, a table of the score database. */
class SqlUploadIndex<M extends Mode> implements UploadIndex {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  add(upload: Upload, quota: Quota): Outcome<M, QuotaRefusal | undefined> {
    return this.db.transaction(function* () {
      const refused = quotaRefusal(quota, yield* lockedUsage(upload.ownerId), upload.size, 1);
      if (refused === undefined) yield* write(Q.insert, upload.id, upload.ownerId, upload.purpose, upload.contentType, upload.size, upload.creationDate);
      return refused;
    });
  }

  find(id: string): Outcome<M, Upload | undefined> {
    return this.db.run(() => rowAs(uploadOf, Q.upload, id));
  }

  drop(id: string): Outcome<M, void> {
    return this.db.run(() => write(Q.delete, id));
  }
}

export class SqliteUploadIndex extends SqlUploadIndex<'sync'> {}
export class PgUploadIndex extends SqlUploadIndex<'async'> {}
