/** Accounts and tokens on a real SQLite file, and the scope list parser. */
import t from 'tap';
import { parseScopes } from '../../../src/scores/accounts/scopes.js';
import { openScoresDatabase } from '../../../src/scores/state/sqlite-database.js';
import { SqliteAccountStore } from '../../../src/scores/state/sql-account-store.js';
import { tempDir } from '../../support/temp-dir.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

t.test('scope lists: known names, trimmed, once each; the first unknown one reported', async (t) => {
  t.same(parseScopes('scores, account.public_profile,,scores'), { ok: true, scopes: ['scores', 'account.public_profile'] });
  t.same(parseScopes(''), { ok: true, scopes: [] });
  t.same(parseScopes('scores,Scores,edu.classes'), { ok: false, unknown: 'Scores' }, 'scope names are case-sensitive');
});

t.test('users are made once by name; tokens grant their own scopes to their user', async (t) => {
  const dir = await tempDir(t, 'scores-db-');
  const store = new SqliteAccountStore(openScoresDatabase(dir, 'normal'));
  t.teardown(() => store.close());
  const alice = store.ensureUser('alice', NOW);
  t.match(alice, { id: /^[0-9a-f]{24}$/, username: 'alice', registrationDate: NOW, pictureFile: null, coverPictureFile: null });
  t.same(store.ensureUser('alice', NOW + 1000), alice, 'the same user, registered at its first time');
  t.not(store.ensureUser('bob', NOW).id, alice.id);

  const full = store.createToken(alice.id, ['scores', 'account.public_profile'], NOW, NOW + 60_000);
  const none = store.createToken(alice.id, [], NOW, NOW + 60_000);
  t.same(store.grantOf(full), { user: alice, scopes: ['scores', 'account.public_profile'], expirationDate: NOW + 60_000, revocationDate: null });
  t.same(store.grantOf(none), { user: alice, scopes: [], expirationDate: NOW + 60_000, revocationDate: null });
  t.equal(store.grantOf(`${full}x`), undefined, 'a token that was never issued grants nothing');
  t.equal(store.grantOf(''), undefined);
});
