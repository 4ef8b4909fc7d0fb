import { join } from 'node:path';
import {
  DiskUploadStore,
  newSharingKey,
  openScoresDatabase,
  openScoresPostgres,
  PgAccountStore,
  PgCommentStore,
  PgCollectionStore,
  PgEducationStore,
  PgScoreStore,
  PgTrackStore,
  PgUploadIndex,
  scoresApi,
  SqliteAccountStore,
  SqliteCommentStore,
  SqliteCollectionStore,
  SqliteEducationStore,
  SqliteScoreStore,
  SqliteTrackStore,
  SqliteUploadIndex,
  type AccountStore,
  type ScoresApiParts,
} from '../../scores/index.js';
import { SharedMemoryCounterStore } from '../../backends/shared-memory/index.js';
import { AudioSynthesizer, PooledNotationRenderer, ScoreExporter } from '../../scores/exports/index.js';
import { loadUrlSecret, UrlSigner } from '../../scores/files/index.js';
import type { Settings } from '../../settings/index.js';
import type { ApiDefinition } from '../../transports/http/handoff/index.js';
import { threadEntryFile } from '../thread-entries.js';

const RENDER_WORKER = threadEntryFile('renderProcess');

/**
 * Accounts whose failed enrolments one minute can count (the embedded counter store's table;
 * about 630 bytes of address space each, resident only as used). Past it, every enrolment waits
 * for the next minute rather than going uncounted.
 */
export const ENROLMENT_ACCOUNTS_PER_MINUTE = 16_384;

export interface ScoresRuntime {
  api: ApiDefinition;
  close(): Promise<void>;
}

/** Where the score API keeps its files (and, on the embedded store, its database): DATA_DIR/scores. */
export function scoresDataDir(settings: Settings): string {
  return join(settings.dataDir, 'scores');
}

type Stores = Pick<ScoresApiParts, 'accounts' | 'scores' | 'tracks' | 'education' | 'uploads' | 'comments' | 'collections'> & { close(): Promise<void> };

/** The score API's stores: PostgreSQL when SCORES_DATABASE_URL is set, else SQLite under DATA_DIR. */
async function openStores(settings: Settings): Promise<Stores> {
  const dir = scoresDataDir(settings);
  const uploadsDir = join(dir, 'uploads');
  if (settings.scoresDatabaseUrl !== '') {
    const pool = await openScoresPostgres(settings.scoresDatabaseUrl);
    return { accounts: new PgAccountStore(pool), scores: new PgScoreStore(pool), tracks: new PgTrackStore(pool), education: new PgEducationStore(pool), comments: new PgCommentStore(pool), collections: new PgCollectionStore(pool), uploads: new DiskUploadStore(new PgUploadIndex(pool), uploadsDir), close: () => pool.end() };
  }
  const db = openScoresDatabase(dir, settings.dataSync);
  const close = () => {
    db.close();
    return Promise.resolve();
  };
  return { accounts: new SqliteAccountStore(db), scores: new SqliteScoreStore(db), tracks: new SqliteTrackStore(db), education: new SqliteEducationStore(db), comments: new SqliteCommentStore(db), collections: new SqliteCollectionStore(db), uploads: new DiskUploadStore(new SqliteUploadIndex(db), uploadsDir), close };
}

/** The accounts of the score API (also opened by `scores:token` while the service runs); closing it closes its database. */
export async function openAccountStore(settings: Settings): Promise<AccountStore> {
  if (settings.scoresDatabaseUrl !== '') return new PgAccountStore(await openScoresPostgres(settings.scoresDatabaseUrl));
  return new SqliteAccountStore(openScoresDatabase(scoresDataDir(settings), settings.dataSync));
}

/** The score and education API on the calling thread (the API thread). */
export async function openScores(settings: Settings, now: () => number = Date.now): Promise<ScoresRuntime> {
  const dir = scoresDataDir(settings);
  const stores = await openStores(settings);
  const renderer = new PooledNotationRenderer({
    entryFile: RENDER_WORKER,
    processes: settings.scoresRenderThreads,
    nice: settings.apiThreadNice,
    limits: { maxExpandedMeasures: settings.scoresMaxExpandedMeasures, maxMemoryMb: settings.scoresRenderMaxMemoryMb },
    timeoutMs: settings.scoresRenderTimeoutMs,
    maxQueued: settings.scoresExportMaxQueued,
  });
  const audio = new AudioSynthesizer({
    fluidsynth: settings.scoresFluidsynth,
    lame: settings.scoresLame,
    soundfont: settings.scoresSoundfont,
    sampleRate: settings.scoresSampleRate,
    mp3BitrateKbps: settings.scoresMp3BitrateKbps,
    nice: settings.apiThreadNice,
    timeoutMs: settings.scoresRenderTimeoutMs,
  });
  const exporter = new ScoreExporter({
    cache: { dir: join(dir, 'exports'), maxBytes: settings.scoresExportCacheBytes, accountShare: settings.scoresExportCacheAccountShare, now },
    renderer,
    audio,
    maxAudioMs: settings.scoresMaxAudioMs,
    synthConcurrency: settings.scoresSynthConcurrency,
    maxQueued: settings.scoresExportMaxQueued,
  });
  const api = scoresApi({
    ...stores,
    exporter,
    signer: new UrlSigner(loadUrlSecret(join(dir, 'url-secret')), settings.scoresUrlTtlMs, now),
    publicUrl: settings.scoresPublicUrl,
    adminToken: settings.scoresAdminToken,
    maxUploadBytes: settings.apiMaxRequestBytes,
    quota: { maxBytes: settings.scoresAccountMaxBytes, maxUploads: settings.scoresAccountMaxUploads, maxRevisionsPerScore: settings.scoresMaxRevisionsPerScore },
    maxCollections: settings.scoresAccountMaxCollections,
    enrolmentCounters: SharedMemoryCounterStore.create({ maxKeysPerWindow: ENROLMENT_ACCOUNTS_PER_MINUTE }),
    enrollFailuresPerMinute: settings.scoresEnrollFailuresPerMinute,
    maxCommentsPerScore: settings.scoresMaxCommentsPerScore,
    tokenTtlMs: settings.scoresTokenTtlMs,
    musicXmlLimits: { maxBytes: settings.scoresMaxMusicXmlBytes, maxInflateRatio: settings.scoresMxlMaxRatio },
    now,
    newSharingKey,
  });
  return {
    api,
    close: async () => {
      await renderer.close();
      await stores.close();
    },
  };
}
