/** The score and education API, served on the API thread. */
export { scoresApi } from './scores-api.js';
export type { ScoresApiParts } from './scores-api.js';
export type { AccountStore } from './accounts/account-store.js';
export { parseScopes, SCOPES } from './accounts/scopes.js';
export type { Scope } from './accounts/scopes.js';
export { isValidUsername, USERNAME_RULE } from './accounts/user.js';
export { openScoresDatabase } from './state/sqlite-database.js';
export { SqliteAccountStore } from './state/sqlite-account-store.js';
export { SqliteScoreStore } from './state/sqlite-score-store.js';
export { newSharingKey } from './accounts/tokens.js';
export { SqliteTrackStore } from './state/sqlite-track-store.js';
export { DiskUploadStore } from './state/disk-upload-store.js';
export { SqliteUploadIndex, PgUploadIndex } from './state/upload-indexes.js';
export { openScoresPostgres } from './state/pg-database.js';
export { PgAccountStore } from './state/pg-account-store.js';
export { PgScoreStore } from './state/pg-score-store.js';
export { PgTrackStore } from './state/pg-track-store.js';
