import { join } from 'node:path';
import { newSharingKey, openScoresDatabase, scoresApi, SqliteAccountStore, SqliteScoreStore, type AccountStore } from '../scores/index.js';
import type { Settings } from '../settings/index.js';
import type { ApiDefinition } from '../transports/http/handoff/index.js';

export interface ScoresRuntime {
  api: ApiDefinition;
  close(): void;
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
  const db = openScoresDatabase(scoresDataDir(settings), settings.dataSync);
  const api = scoresApi({ accounts: new SqliteAccountStore(db), scores: new SqliteScoreStore(db), now, newSharingKey });
  return { api, close: () => db.close() };
}
