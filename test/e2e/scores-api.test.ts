/**
 * Scores and revisions of the score API through the real HTTP front and the API thread: created
 * from MusicXML and .mxl, read, edited, trashed and restored, revised, exported as MusicXML; every
 * 200 body validated against the Flat API 2.13.0 definition; who may do what.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import t from 'tap';
import { issueToken as token, scoreServiceEnv } from '../support/score-api-client.js';
import { flatSchemaErrors } from '../support/flat-schema.js';
import { startService, type Service } from '../support/service-harness.js';
import { httpRequest, type HttpResult } from '../support/http-request.js';
import { tempDir } from '../support/temp-dir.js';

const XML = readFileSync(new URL('../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');

interface Client {
  call(method: string, path: string, body?: unknown): Promise<HttpResult>;
}

function client(service: Service, bearer: string | undefined): Client {
  return {
    call: (method, path, body) =>
      httpRequest(`${service.baseUrl}${path}`, {
        method,
        headers: { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

t.test('a score from MusicXML: created, read, edited, revised, exported, trashed and restored', async (t) => {
  const dataDir = await tempDir(t, 'scores-api-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const alice = client(service, await token(env, 'alice', 'scores,account.public_profile'));
  const bob = client(service, await token(env, 'bob', 'scores'));
  const reader = client(service, await token(env, 'carol', 'scores.readonly'));

  const created = await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML });
  t.equal(created.status, 200, created.text);
  t.same(flatSchemaErrors('ScoreDetails', created.json), [], 'a ScoreDetails');
  t.match(created.json, { id: /^[0-9a-f]{24}$/, title: 'Two Measures', privacy: 'private', numberMeasures: 2, sharingKey: /^[0-9a-f]{128}$/, user: { username: 'alice' }, rights: { aclAdmin: true } });
  const score = created.json as { id: string; sharingKey: string };

  const mxl = zipSync({ 'META-INF/container.xml': strToU8('<container><rootfiles><rootfile full-path="s.xml"/></rootfiles></container>'), 's.xml': strToU8(XML.replace(/<work>.*<\/work>\s*<movement-title>.*<\/movement-title>/s, '')) });
  const compressed = await alice.call('POST', '/v2/scores', { privacy: 'public', filename: 'Etude.mxl', data: Buffer.from(mxl).toString('base64'), dataEncoding: 'base64' });
  t.match(compressed.json, { title: 'Etude', privacy: 'public' }, 'an .mxl without a title takes the file name');

  for (const [what, body, param] of [
    ['no privacy', { data: XML }, 'privacy'],
    ['an unknown privacy', { privacy: 'secret', data: XML }, 'privacy'],
    ['no data', { privacy: 'private' }, 'data'],
    ['HTML for data', { privacy: 'private', data: '<html/>' }, 'data'],
    ['broken XML', { privacy: 'private', data: '<score-partwise><part>' }, 'data'],
    ['an unknown encoding', { privacy: 'private', data: XML, dataEncoding: 'hex' }, 'dataEncoding'],
  ] as const) {
    const refused = await alice.call('POST', '/v2/scores', body);
    t.equal(refused.status, 400, what);
    t.match(refused.json, { code: String, message: String, param }, `${what}: names ${param}`);
  }
  t.match((await alice.call('POST', '/v2/scores', { privacy: 'private', data: '<html/>' })).json, { code: 'INVALID_MUSICXML', message: 'the root element is <html>; MusicXML has <score-partwise> or <score-timewise>' });

  const path = `/v2/scores/${score.id}`;
  t.equal((await bob.call('GET', path)).status, 403, 'a private score is not shown to another user');
  t.equal((await client(service, undefined).call('GET', path)).status, 401);
  t.equal((await reader.call('POST', '/v2/scores', { privacy: 'private', data: XML })).status, 403, 'scores.readonly cannot create');

  const edited = await alice.call('PUT', path, { title: 'Renamed', composer: 'Anon', tags: ['etude', 'piano'], privacy: 'privateLink', license: 'cc-by' });
  t.equal(edited.status, 200);
  t.same(flatSchemaErrors('ScoreDetails', edited.json), []);
  t.match(edited.json, { title: 'Renamed', composer: 'Anon', tags: ['etude', 'piano'], privacy: 'privateLink', license: 'cc-by' });
  t.match((await alice.call('PUT', path, { tags: ['no spaces allowed'] })).json, { code: 'BAD_REQUEST', param: 'tags' });
  t.equal((await bob.call('GET', path)).status, 403, 'privateLink without the key');
  const shared = await reader.call('GET', `${path}?sharingKey=${score.sharingKey}`);
  t.equal(shared.status, 200, 'privateLink with the key');
  t.notOk('sharingKey' in (shared.json as object), 'the key is shown to its owner only');
  t.equal((await bob.call('PUT', `${path}?sharingKey=${score.sharingKey}`, { title: 'Mine' })).status, 403, 'readers cannot edit');

  const revisions = await alice.call('GET', `${path}/revisions`);
  t.equal((revisions.json as unknown[]).length, 1, 'the first revision comes with the score');
  t.same((revisions.json as unknown[]).flatMap((revision) => flatSchemaErrors('ScoreRevision', revision)), [], 'each a ScoreRevision');
  const revised = XML.replace('<step>G</step>', '<step>A</step>').replace('</part>', '<measure number="3"><note><rest/><duration>4</duration></note></measure></part>');
  const added = await alice.call('POST', `${path}/revisions`, { data: revised, description: 'third measure', autosave: false });
  t.equal(added.status, 200, added.text);
  t.same(flatSchemaErrors('ScoreRevision', added.json), [], 'a ScoreRevision');
  t.match(added.json, { id: /^[0-9a-f]{24}$/, description: 'third measure', autosave: false, creationDate: /Z$/ });
  t.match((await alice.call('GET', `${path}/revisions/last`)).json, { id: (added.json as { id: string }).id }, 'last is the newest');
  t.match((await alice.call('GET', path)).json, { numberMeasures: 3 }, 'the score follows its newest revision');
  t.equal((await alice.call('GET', `${path}/revisions/000000000000000000000000`)).status, 404);

  const first = (revisions.json as Array<{ id: string }>)[0]!.id;
  const exported = await alice.call('GET', `${path}/revisions/${first}/xml`);
  t.equal(exported.text, XML, 'xml: the MusicXML of that revision');
  t.equal(exported.headers['content-type'], 'application/vnd.recordare.musicxml+xml');
  const zipped = await fetch(`${service.baseUrl}${path}/revisions/last/mxl?sharingKey=${score.sharingKey}`, { headers: { authorization: `Bearer ${await token(env, 'carol', 'scores.readonly')}` } });
  const files = unzipSync(new Uint8Array(await zipped.arrayBuffer()));
  t.match(strFromU8(files['META-INF/container.xml']!), /full-path="score.xml"/);
  t.equal(strFromU8(files['score.xml']!), revised, 'mxl: the newest revision, compressed');
  t.match((await alice.call('GET', `${path}/revisions/last/docx`)).json, { code: 'BAD_REQUEST', param: 'format' });

  t.equal((await alice.call('DELETE', path)).status, 204, 'to the trash');
  t.equal((await alice.call('GET', path)).status, 404, 'a trashed score is not accessible');
  t.equal((await alice.call('POST', `${path}/untrash`)).status, 204);
  t.equal((await alice.call('GET', path)).status, 200, 'untrashed');

  await service.close();
  const restarted = await startService(t, { env });
  const again = client(restarted, await token(env, 'alice', 'scores'));
  t.match((await again.call('GET', path)).json, { title: 'Renamed', numberMeasures: 3 }, 'all there after a restart');
  t.equal((await again.call('DELETE', `${path}?now=true`)).status, 204, 'deleted for good');
  t.equal((await again.call('POST', `${path}/untrash`)).status, 404, 'nothing left to untrash');
});
