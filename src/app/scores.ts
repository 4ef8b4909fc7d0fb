import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiskUploadStore, newSharingKey, openScoresDatabase, scoresApi, SqliteAccountStore, SqliteScoreStore, SqliteTrackStore, type AccountStore } from '../scores/index.js';
import { AudioSynthesizer, PooledNotationRenderer, ScoreExporter } from '../scores/exports/index.js';
import { loadUrlSecret, UrlSigner } from '../scores/files/index.js';
import type { Settings } from '../settings/index.js';
import type { ApiDefinition } from '../transports/http/handoff/index.js';

const RENDER_WORKER = fileURLToPath(new URL('./render-worker.js', import.meta.url));

export interface ScoresRuntime {
  api: ApiDefinition;
  close(): Promise<void>;
}

/** Where the score API keeps its database and files: DATA_DIR/scores. */
export function scoresDataDir(settings: Settings): string {
  return join(settings.dataDir, 'scores');
}

/** The accounts of the score API on the embedded store (also opened by `scores:token` while the service runs). */
export function openAccountStore(settings: Settings): AccountStore {
  return new SqliteAccountStore(openScoresDatabase(scoresDataDir(settings), settings.dataSync));
}

/** The score and education API on the calling thread (the API thread), on the embedded store. */
export function openScores(settings: Settings, now: () => number = Date.now): ScoresRuntime {
  const dir = scoresDataDir(settings);
  const db = openScoresDatabase(dir, settings.dataSync);
  const renderer = new PooledNotationRenderer({ workerFile: RENDER_WORKER, threads: settings.scoresRenderThreads, nice: settings.apiThreadNice });
  const audio = new AudioSynthesizer({
    fluidsynth: settings.scoresFluidsynth,
    lame: settings.scoresLame,
    soundfont: settings.scoresSoundfont,
    sampleRate: settings.scoresSampleRate,
    mp3BitrateKbps: settings.scoresMp3BitrateKbps,
    nice: settings.apiThreadNice,
  });
  const api = scoresApi({
    accounts: new SqliteAccountStore(db),
    scores: new SqliteScoreStore(db),
    tracks: new SqliteTrackStore(db),
    uploads: new DiskUploadStore(db, join(dir, 'uploads')),
    maxUploadBytes: settings.apiMaxRequestBytes,
    exporter: new ScoreExporter(join(dir, 'exports'), renderer, audio),
    signer: new UrlSigner(loadUrlSecret(join(dir, 'url-secret')), settings.scoresUrlTtlMs, now),
    publicUrl: settings.scoresPublicUrl,
    adminToken: settings.scoresAdminToken,
    now,
    newSharingKey,
  });
  return {
    api,
    close: async () => {
      await renderer.close();
      db.close();
    },
  };
}
