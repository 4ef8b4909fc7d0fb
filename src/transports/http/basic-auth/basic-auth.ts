import { ServiceError } from '../../../errors/index.js';
import type { HeaderList } from '../exchange.js';
import { parseBasicAuth } from './credentials.js';
import { VerdictCache, verdictKey } from './verdict-cache.js';

/** Whether a password matches a bcrypt hash; 'unavailable' when that cannot be told now. */
export type PasswordCheck = (hash: string, password: string) => Promise<boolean | 'unavailable'>;

/** A request may go on (undefined), is refused, or will be told once its password is checked. */
export type Admission = ServiceError | undefined;

/** Distinct credentials one HTTP thread may have waiting for their first bcrypt check. */
export const MAX_PENDING_PASSWORD_CHECKS = 16;

/**
 * The hash an unknown user's password is checked against, so a wrong user name costs the same
 * bcrypt run as a wrong password and the timing tells no one which users exist.
 */
const DECOY_HASH = '$2b$10$gccsT8HCmGOQxLNdMUxu4uT.YzAqi2IF2JPDghUqbaAXWP5ClBVKy';

/** exporter-toolkit's answer: Go's http.Error(w, "Unauthorized", 401) after `WWW-Authenticate: Basic`. */
const UNAUTHORIZED = new ServiceError('HTTP_UNAUTHORIZED', 'Unauthorized', { authenticate: 'Basic' });
const BUSY = new ServiceError('HTTP_AUTH_BUSY', 'too many new credentials are waiting for their password check; try again');

/**
 * `basic_auth_users` of the web configuration on one HTTP thread. A credential is checked with
 * bcrypt once (on the password-check thread, never here) and its verdict kept, so a known
 * credential costs a SHA-256 and a map lookup; requests with the same new credential share one
 * check.
 */
export class BasicAuth {
  private users = new Map<string, string>();
  private readonly verdicts = new VerdictCache();
  private readonly pending = new Map<string, Promise<boolean | 'unavailable'>>();

  constructor(
    private readonly check: PasswordCheck,
    private readonly maxPending = MAX_PENDING_PASSWORD_CHECKS,
  ) {}

  /** Replaces the users (a reloaded file); verdicts of the old ones are forgotten. */
  setUsers(users: ReadonlyArray<readonly [string, string]>): void {
    this.users = new Map(users);
    this.verdicts.clear();
  }

  get enabled(): boolean {
    return this.users.size > 0;
  }

  /** What to do with a request carrying `headers` (lower-case names, as uWS gives them). */
  admit(headers: HeaderList): Admission | Promise<Admission> {
    if (this.users.size === 0) return undefined;
    const credentials = parseBasicAuth(headers.find(([name]) => name === 'authorization')?.[1]);
    if (credentials === undefined) return UNAUTHORIZED;
    const stored = this.users.get(credentials.user);
    const hash = stored ?? DECOY_HASH;
    const key = verdictKey(credentials.user, hash, credentials.password);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known && stored !== undefined ? undefined : UNAUTHORIZED;
    let verdict = this.pending.get(key);
    if (verdict === undefined) {
      if (this.pending.size >= this.maxPending) return BUSY;
      const users = this.users;
      verdict = this.check(hash, credentials.password);
      this.pending.set(key, verdict);
      void verdict.then((match) => {
        this.pending.delete(key);
        // A verdict for users since replaced is not kept.
        if (match !== 'unavailable' && users === this.users) this.verdicts.set(key, match && stored !== undefined);
      });
    }
    return verdict.then((match) => {
      if (match === 'unavailable') return BUSY;
      return match && stored !== undefined ? undefined : UNAUTHORIZED;
    });
  }
}
