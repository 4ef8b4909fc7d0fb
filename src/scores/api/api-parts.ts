import type { ApiRequest } from '../../transports/http/handoff/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { Quota } from '../accounts/quota.js';
import type { EducationStore } from '../education/education-store.js';
import type { EnrolmentGuard } from '../education/enrolment-guard.js';
import type { ClassShares } from '../education/score-sharing.js';
import type { ScoreExporter } from '../exports/index.js';
import type { MusicXmlLimits } from '../musicxml/read-score-file.js';
import type { UploadStore } from '../files/uploads.js';
import type { UrlSigner } from '../files/url-signer.js';
import type { CommentStore } from '../library/comment-store.js';
import type { CollectionStore } from '../library/collection-store.js';
import type { ScoreStore } from '../library/score-store.js';
import type { TrackStore } from '../library/track-store.js';

/** Everything the score and education API's routes work with; each group of routes picks what it needs. */
export interface ScoreApiParts {
  accounts: AccountStore;
  scores: ScoreStore;
  tracks: TrackStore;
  comments: CommentStore;
  collections: CollectionStore;
  education: EducationStore;
  classShares: ClassShares;
  uploads: UploadStore;
  exporter: ScoreExporter;
  signer: UrlSigner;
  /** The absolute URL of a path of this service, as the client reached it. */
  absoluteUrl(request: ApiRequest, path: string): string;
  /** Largest uploaded file (picture, recording). */
  maxUploadBytes: number;
  /** What one account may store. */
  quota: Quota;
  /** Regular collections one account may have, trashed ones included. */
  maxCollections: number;
  /** Failed enrolments per account: guessing enrollment codes waits. */
  enrolmentGuard: EnrolmentGuard;
  /** Comments one score may have. */
  maxCommentsPerScore: number;
  /** Lifetime of a token issued without an expiration date of its own. */
  tokenTtlMs: number;
  /** How large an uploaded score may be once uncompressed. */
  musicXmlLimits: MusicXmlLimits;
  now(): number;
  /** A new 128-hex-digit sharing key. */
  newSharingKey(): string;
}
