/** A score as the service keeps it. Times are epoch milliseconds. */
export interface Score {
  id: string;
  ownerId: string;
  title: string;
  subtitle: string;
  composer: string;
  lyricist: string;
  arranger: string;
  description: string;
  tags: string[];
  creationType: 'original' | 'arrangement' | 'other';
  license: string;
  licenseText: string;
  privacy: ScorePrivacy;
  /** 128 hex digits: who holds it may read a `privateLink` score. */
  sharingKey: string;
  numberMeasures: number;
  creationDate: number;
  modificationDate: number;
  /** When it went to the trash (DELETE); null while it is not there. */
  trashedAt: number | null;
  /** The collection whose deletion took it to the trash, which brings it back when untrashed. */
  trashedWith?: string;
  /** The score it was forked from (ScoreDetails.parentScore). */
  parentScore?: string;
}

export const SCORE_PRIVACIES = ['public', 'private', 'organizationPublic', 'privateLink'] as const;
export type ScorePrivacy = (typeof SCORE_PRIVACIES)[number];

export const CREATION_TYPES = ['original', 'arrangement', 'other'] as const;
export const LICENSES = ['copyright', 'cc0', 'cc-by', 'cc-by-sa', 'cc-by-nd', 'cc-by-nc', 'cc-by-nc-sa', 'cc-by-nc-nd'] as const;

/** One saved version of a score's notation. */
export interface Revision {
  id: string;
  scoreId: string;
  userId: string;
  creationDate: number;
  description: string;
  autosave: boolean;
}
