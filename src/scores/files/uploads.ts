import type { Quota, QuotaRefusal } from '../accounts/quota.js';

/** What an uploaded file is for: it decides who may fetch it (see file-routes.ts). */
export type UploadPurpose = 'picture' | 'coverPicture' | 'trackAudio';

/** A file a user uploaded (a profile picture, a track's audio). Times are epoch milliseconds. */
export interface Upload {
  id: string;
  ownerId: string;
  purpose: UploadPurpose;
  contentType: string;
  size: number;
  creationDate: number;
}

/**
 * Uploaded files: their bytes under the data directory, their description in the database.
 * The bytes are in place before the description is, so a described file always exists.
 */
export interface UploadStore {
  /** Stores the file when it fits its owner's quota; otherwise keeps nothing and says why. */
  save(upload: Upload, bytes: Uint8Array, quota: Quota): Promise<QuotaRefusal | undefined>;
  describe(id: string): Upload | undefined | Promise<Upload | undefined>;
  read(id: string): Promise<Uint8Array | undefined>;
  remove(ids: readonly string[]): Promise<void>;
}

/** Where an uploaded file is served (api/file-routes.ts); signed for track audio. */
export function uploadPath(fileId: string): string {
  return `/v2/files/uploads/${fileId}`;
}
