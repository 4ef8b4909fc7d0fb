/**
 * Basic auth of the web configuration: the header read as Go reads it, verdicts kept so a known
 * credential is never hashed again, one check for many requests with the same new credential, a
 * bound on checks waiting, and the password-check side doing real bcrypt over a real
 * MessageChannel.
 */
import { MessageChannel } from 'node:worker_threads';
import bcrypt from 'bcryptjs';
import t from 'tap';
import {
  answerPasswordChecks,
  BasicAuth,
  parseBasicAuth,
  PasswordCheckClient,
  VerdictCache,
  verdictKey,
  type Admission,
} from '../../../../src/transports/http/basic-auth/index.js';
import { ServiceError } from '../../../../src/errors/index.js';

const basic = (credentials: string): Array<[string, string]> => [['authorization', `Basic ${Buffer.from(credentials).toString('base64')}`]];
const HASH = bcrypt.hashSync('s3cret', 4);

t.test("the Authorization header, read as Go's Request.BasicAuth reads it", async (t) => {
  t.same(parseBasicAuth(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`), { user: 'alice', password: 's3cret' });
  t.same(parseBasicAuth(`bAsIc ${Buffer.from('alice:a:b').toString('base64')}`), { user: 'alice', password: 'a:b' }, 'any case; split at the first colon');
  t.same(parseBasicAuth(`Basic ${Buffer.from(':').toString('base64')}`), { user: '', password: '' });
  t.same(parseBasicAuth(`Basic ${Buffer.from('élan:mot de passe').toString('base64')}`), { user: 'élan', password: 'mot de passe' }, 'UTF-8');
  for (const header of [undefined, '', 'Basic', 'Bearer abc', `Basic ${Buffer.from('nocolon').toString('base64')}`, 'Basic YWxpY2U6czNjcmU', 'Basic !!!!', `Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`]) {
    t.equal(parseBasicAuth(header), undefined, JSON.stringify(header));
  }
});

t.test('the verdict cache is bounded and keeps no password in clear', async (t) => {
  const cache = new VerdictCache(100, () => 0.5);
  for (let i = 0; i < 1000; i++) cache.set(verdictKey('u', 'h', `password-${i}`), false);
  t.ok(cache.size <= 100, `holds ${cache.size} after 1000 distinct credentials`);
  t.notMatch(verdictKey('alice', HASH, 's3cret'), /s3cret/);
  t.not(verdictKey('alice', HASH, 's3cret'), verdictKey('alice', HASH.replace('$04$', '$05$'), 's3cret'), 'a changed hash is a new key');
});

/** A password check that counts its calls and answers when told. */
function countingCheck(answer: (hash: string, password: string) => boolean | 'unavailable' = (hash, password) => bcrypt.compareSync(password, hash)) {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  return {
    calls,
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    check: async (hash: string, password: string) => {
      calls.push(password);
      await gate;
      return answer(hash, password);
    },
  };
}

const refusedCode = (admission: Admission) => (admission instanceof ServiceError ? admission.code : admission);

t.test('a credential is hashed once; later requests with it are answered from its verdict', async (t) => {
  const check = countingCheck();
  const auth = new BasicAuth(check.check);
  auth.setUsers([['alice', HASH]]);
  t.ok(auth.enabled);

  const first = auth.admit(basic('alice:s3cret'));
  t.type(first, Promise, 'a new credential waits for its check');
  t.equal(await first, undefined, 'and is let in');
  for (let i = 0; i < 5; i++) t.equal(auth.admit(basic('alice:s3cret')), undefined, 'then it is let in at once');
  t.same(check.calls, ['s3cret'], 'bcrypt ran once');

  t.equal(refusedCode(await auth.admit(basic('alice:wrong'))), 'HTTP_UNAUTHORIZED', 'a wrong password: 401');
  t.equal(refusedCode(auth.admit(basic('alice:wrong')) as Admission), 'HTTP_UNAUTHORIZED', 'remembered too');
  const unknown = await auth.admit(basic('mallory:s3cret'));
  t.equal(refusedCode(unknown), 'HTTP_UNAUTHORIZED', 'an unknown user: 401');
  t.same(check.calls, ['s3cret', 'wrong', 's3cret'], "an unknown user's password is hashed too (against a decoy), so timing shows no user names");
  t.match(unknown, { message: 'Unauthorized', details: { authenticate: 'Basic' } }, "exporter-toolkit's body and challenge");
  t.equal(refusedCode(auth.admit([]) as Admission), 'HTTP_UNAUTHORIZED', 'no header: 401 at once');
  t.equal(refusedCode(auth.admit([['authorization', 'Bearer x']]) as Admission), 'HTTP_UNAUTHORIZED');

  auth.setUsers([['alice', bcrypt.hashSync('n3w', 4)]]);
  t.equal(refusedCode(await auth.admit(basic('alice:s3cret'))), 'HTTP_UNAUTHORIZED', 'a reloaded file: the old password no longer works');
  t.equal(await auth.admit(basic('alice:n3w')), undefined, 'the new one does');
  auth.setUsers([]);
  t.notOk(auth.enabled);
  t.equal(auth.admit([]), undefined, 'no users: everyone is let in');
});

t.test('requests with the same new credential share one check; too many new credentials wait no more', async (t) => {
  const check = countingCheck();
  const auth = new BasicAuth(check.check, 2);
  auth.setUsers([['alice', HASH]]);
  check.hold();
  const same = [auth.admit(basic('alice:s3cret')), auth.admit(basic('alice:s3cret')), auth.admit(basic('alice:s3cret'))];
  const other = auth.admit(basic('alice:other'));
  t.equal(refusedCode(auth.admit(basic('alice:third')) as Admission), 'HTTP_AUTH_BUSY', 'a third distinct credential while two wait: 503 at once');
  check.release();
  t.same(await Promise.all(same), [undefined, undefined, undefined]);
  t.equal(refusedCode(await other), 'HTTP_UNAUTHORIZED');
  t.same(check.calls, ['s3cret', 'other'], 'one check per distinct credential');
  t.equal(refusedCode(await auth.admit(basic('alice:third'))), 'HTTP_UNAUTHORIZED', 'room again once they are done: checked, and wrong');
});

t.test('no verdict in time is a 503, and is not remembered', async (t) => {
  let answer: boolean | 'unavailable' = 'unavailable';
  const check = countingCheck(() => answer);
  const auth = new BasicAuth(check.check);
  auth.setUsers([['alice', HASH]]);
  t.equal(refusedCode(await auth.admit(basic('alice:s3cret'))), 'HTTP_AUTH_BUSY');
  answer = true;
  t.equal(await auth.admit(basic('alice:s3cret')), undefined, 'asked again next time');
  t.same(check.calls, ['s3cret', 's3cret']);
});

t.test('the password-check side: real bcrypt over a real MessageChannel, verdicts shared by every port', async (t) => {
  const verdicts = new VerdictCache();
  const a = new MessageChannel();
  const b = new MessageChannel();
  answerPasswordChecks(a.port2, verdicts);
  answerPasswordChecks(b.port2, verdicts);
  const clientA = new PasswordCheckClient(a.port1);
  const clientB = new PasswordCheckClient(b.port1);
  t.teardown(() => {
    clientA.close();
    clientB.close();
    a.port2.close();
    b.port2.close();
  });
  t.equal(await clientA.check(HASH, 's3cret'), true);
  t.equal(await clientA.check(HASH, 'wrong'), false);
  t.equal(verdicts.size, 2, 'both verdicts kept');
  t.equal(await clientB.check(HASH, 's3cret'), true, "another thread's port gets the kept verdict");
  t.equal(verdicts.size, 2, 'without a new entry');
  t.equal(await clientA.check('not a hash', 'x'), false, 'a hash bcrypt cannot read matches nothing');

  const silent = new MessageChannel();
  const waiting = new PasswordCheckClient(silent.port1, 50);
  t.teardown(() => silent.port2.close());
  t.equal(await waiting.check(HASH, 's3cret'), 'unavailable', 'no answer in time');
  const pending = waiting.check(HASH, 's3cret');
  waiting.close();
  t.equal(await pending, 'unavailable', 'closing answers what still waits');
});
