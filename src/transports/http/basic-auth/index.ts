/**
 * `basic_auth_users` of the web configuration file: credentials checked with bcrypt on a
 * thread of their own, once each, and their verdicts kept.
 */
export { BasicAuth, MAX_PENDING_PASSWORD_CHECKS } from './basic-auth.js';
export type { Admission, PasswordCheck } from './basic-auth.js';
export { parseBasicAuth } from './credentials.js';
export type { BasicCredentials } from './credentials.js';
export { VerdictCache, VERDICT_CACHE_SIZE, verdictKey } from './verdict-cache.js';
export { answerPasswordChecks, PasswordCheckClient, PASSWORD_CHECK_TIMEOUT_MS } from './password-checks.js';
export type { PasswordCheckReply, PasswordCheckRequest } from './password-checks.js';
