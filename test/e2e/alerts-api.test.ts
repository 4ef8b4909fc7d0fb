/**
 * The Alertmanager API v2 of the service, through the real HTTP front and the API thread:
 * every endpoint with valid and invalid input, each error path, and every 200 body validated
 * against Alertmanager's v0.34 OpenAPI spec.
 */
import t from 'tap';
import { fingerprint } from '../../src/alerts/fingerprint.js';
import { alertApi } from '../support/alert-api-client.js';
import type { RequestOptions } from '../support/http-request.js';

const in5m = () => new Date(Date.now() + 5 * 60_000).toISOString();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

t.test('POST then GET /alerts: shape, defaults, receivers, order', async (t) => {
  const api = await alertApi(t);
  const posted = await api.post('/api/v2/alerts', [
    { labels: { alertname: 'A1', instance: 'i1', severity: 'warning', team: 'a' }, annotations: { summary: 's1' } },
    { labels: { alertname: 'OK2' }, generatorURL: 'http://prometheus/graph' },
    { labels: { alertname: 'gone' }, endsAt: ago(1000) },
  ]);
  t.equal(posted.status, 200);
  t.equal(posted.text, '', 'no body');
  t.equal(posted.headers['content-type'], undefined, 'no Content-Type');
  const res = await api.valid(t, 'getAlerts', '/api/v2/alerts');
  t.equal(res.headers['cache-control'], 'no-store');
  t.equal(res.text.endsWith(']\n'), true, "Go's encoder ends the body with a newline");
  const alerts = res.json as Array<Record<string, any>>;
  t.same(alerts.map((a) => a['fingerprint']), ['166dbc0aa1e35f0c', '1613485f5e0c140a'].sort(), 'resolved alerts left out; sorted by fingerprint');
  const a1 = alerts.find((a) => a['fingerprint'] === '166dbc0aa1e35f0c') as Record<string, any>;
  t.same(Object.keys(a1), ['annotations', 'endsAt', 'fingerprint', 'receivers', 'startsAt', 'status', 'updatedAt', 'labels'], "Go's field order");
  t.same(a1['receivers'], [{ name: 'team-a' }], 'the matching leaf; its siblings are tried (continue) but the root is not a match once a child is');
  t.same(a1['status'], { inhibitedBy: [], mutedBy: [], silencedBy: [], state: 'active' });
  t.equal(Date.parse(a1['endsAt']) - Date.parse(a1['startsAt']), 60_000, 'endsAt = now + resolve_timeout');
  t.match(a1['startsAt'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'UTC with milliseconds');
  const ok2 = alerts.find((a) => a['fingerprint'] === '1613485f5e0c140a') as Record<string, any>;
  t.equal(ok2['generatorURL'], 'http://prometheus/graph');
  t.same(ok2['annotations'], {}, 'annotations always present');
});

t.test('POST /alerts refuses bad bodies as go-openapi does', async (t) => {
  const api = await alertApi(t);
  const cases: Array<[string, unknown, number, unknown, RequestOptions?]> = [
    ['not an array', {}, 400, { code: 400, message: 'parsing alerts body from "" failed, because json: cannot unmarshal object into Go value of type models.PostableAlerts' }],
    ['cut off', '[{"labels":', 400, { code: 400, message: 'parsing alerts body from "" failed, because unexpected EOF' }],
    ['number label', [{ labels: { a: 1 } }], 400, { code: 400, message: 'parsing alerts body from "" failed, because json: cannot unmarshal number into Go struct field Alert.labels of type string' }],
    ['no labels', [{ annotations: {} }], 422, { code: 602, message: '0.labels in body is required' }],
    ['bad URL', [{ labels: { a: 'b' }, generatorURL: 'not a url' }], 422, { code: 601, message: '0.generatorURL in body must be of type uri: "not a url"' }],
    ['bad time', [{ labels: { a: 'b' }, startsAt: 'yesterday' }], 400, { code: 400, message: 'parsing alerts body from "" failed, because parsing time "yesterday" as "2006-01-02 15:04:05": cannot parse "yesterday" as "2006"' }],
    ['no body', '', 422, { code: 602, message: 'alerts in body is required' }],
    ['text/plain', '[]', 415, { code: 415, message: 'unsupported media type "text/plain", only [application/json] are allowed' }, { headers: { 'content-type': 'text/plain' } }],
  ];
  for (const [what, body, status, json, options] of cases) {
    const res = await api.post('/api/v2/alerts', body, options);
    t.equal(res.status, status, `${what}: status`);
    t.same(res.json, json, `${what}: body`);
  }
  t.equal((await api.post('/api/v2/alerts', '[]')).status, 200, 'an empty list');
  t.equal((await api.post('/api/v2/alerts', 'null')).status, 200, 'null is an empty list');
  t.equal((await api.post('/api/v2/alerts', '[] trailing')).status, 200, 'what follows the first JSON value is ignored, as Go does');
});

t.test('invalid alerts are reported together; the valid ones of the request are stored', async (t) => {
  const api = await alertApi(t);
  const res = await api.post('/api/v2/alerts', [{ labels: { x: '' } }, { labels: { alertname: 'OK' } }, { labels: { a: 'b' }, startsAt: in5m() }]);
  t.equal(res.status, 400);
  t.equal(res.json, 'at least one label pair required\nstart time must be before end time', 'a JSON string, errors joined by newlines');
  const stored = (await api.get('/api/v2/alerts')).json as Array<{ labels: unknown }>;
  t.same(stored.map((a) => a.labels), [{ alertname: 'OK' }]);
});

t.test('filters, receiver regexes and their errors', async (t) => {
  const api = await alertApi(t);
  await api.post('/api/v2/alerts', [
    { labels: { alertname: 'A', team: 'a' } },
    { labels: { alertname: 'B', team: 'b' } },
    { labels: { alertname: 'C', team: 'c', 'http.status': '500' } },
  ]);
  const names = async (query: string) => ((await api.get(`/api/v2/alerts${query}`)).json as Array<{ labels: { alertname: string } }>).map((a) => a.labels.alertname).sort();
  t.same(await names('?filter=alertname=A'), ['A']);
  t.same(await names('?filter=team=~"b|c"&filter=alertname!="C"'), ['B']);
  t.same(await names('?filter=http.status=500'), ['C'], 'a UTF-8 label name');
  t.same(await names('?receiver=team-b'), ['B', 'C'], 'fully anchored receiver regex');
  t.same(await names('?receiver=team'), [], '`team` does not match `team-a`');
  t.same(await names('?receiver=team-.*'), ['A', 'B', 'C']);
  const bad = await api.get('/api/v2/alerts?filter=team');
  t.equal(bad.status, 400);
  t.equal(bad.json, 'bad matcher format: team');
  const braces = await api.get(`/api/v2/alerts?filter=${encodeURIComponent('{a="b"}')}`);
  t.equal(braces.json, 'unexpected open or close brace: {a="b"}');
  const badRe = await api.get('/api/v2/alerts?receiver=(');
  t.equal(badRe.status, 400);
  t.equal(badRe.json, 'failed to parse receiver param: error parsing regexp: missing closing ): `^(?:()$`');
  const slow = await api.get(`/api/v2/alerts?filter=${encodeURIComponent(`alertname=~"(a+)+$"`)}`);
  t.equal(slow.status, 200, 'a pattern that backtracks in JavaScript is linear in RE2');
});

t.test('silences: create, list, filter, get, update, replace, expire', async (t) => {
  const api = await alertApi(t);
  const body = { matchers: [{ name: 'alertname', value: 'A', isRegex: false }], startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString(), createdBy: 'me', comment: 'c' };
  const created = await api.post('/api/v2/silences', body);
  t.equal(created.status, 200);
  const id = (created.json as { silenceID: string }).silenceID;
  t.match(id, /^[0-9a-f-]{36}$/);
  const one = await api.valid(t, 'getSilence', `/api/v2/silence/${id}`);
  t.same(Object.keys(one.json), ['id', 'status', 'updatedAt', 'annotations', 'comment', 'createdBy', 'endsAt', 'matchers', 'startsAt']);
  t.same((one.json as Record<string, unknown>)['matchers'], [{ isEqual: true, isRegex: false, name: 'alertname', value: 'A' }], 'isEqual defaults to true');
  t.same((one.json as Record<string, unknown>)['status'], { state: 'active' });

  const updated = await api.post('/api/v2/silences', { ...body, id, comment: 'longer', startsAt: (one.json as { startsAt: string }).startsAt, endsAt: new Date(Date.now() + 7_200_000).toISOString() });
  t.same(updated.json, { silenceID: id }, 'same matchers and start: updated in place');
  const replaced = await api.post('/api/v2/silences', { ...body, id, matchers: [{ name: 'alertname', value: 'B', isRegex: false }] });
  const newId = (replaced.json as { silenceID: string }).silenceID;
  t.not(newId, id, 'other matchers: a new silence');
  t.same(((await api.get(`/api/v2/silence/${id}`)).json as { status: unknown }).status, { state: 'expired' }, 'the old one is expired');

  await api.valid(t, 'getSilences', '/api/v2/silences');
  const exact = await api.get(`/api/v2/silences?filter=${encodeURIComponent('alertname=B')}`);
  t.same((exact.json as Array<{ id: string }>).map((s) => s.id), [newId], 'filter by matcher equality');
  const regex = await api.get(`/api/v2/silences?filter=${encodeURIComponent('alertname=~"B"')}`);
  t.same(regex.json, [], 'a regex filter is not an equal matcher');
  const states = (await api.get('/api/v2/silences')).json as Array<{ status: { state: string } }>;
  t.same(states.map((s) => s.status.state), ['active', 'expired'], 'active before expired');
  t.same((await api.get('/api/v2/silences?expired=false')).json, [(await api.get(`/api/v2/silence/${newId}`)).json]);

  const deleted = await api.del(`/api/v2/silence/${newId}`);
  t.equal(deleted.status, 200);
  t.equal(deleted.text, '');
  t.equal((await api.del(`/api/v2/silence/${newId}`)).status, 200, 'expiring an expired silence is fine');
  const missing = await api.del('/api/v2/silence/00000000-0000-4000-8000-000000000000');
  t.equal(missing.status, 404);
  t.equal(missing.text, '', 'an unknown id: 404, no body');
  t.equal((await api.get('/api/v2/silence/00000000-0000-4000-8000-000000000000')).status, 404);
  const malformed = await api.get('/api/v2/silence/foo');
  t.equal(malformed.status, 422);
  t.same(malformed.json, { code: 601, message: 'silenceID in path must be of type uuid: "foo"' });
  const unknownId = await api.post('/api/v2/silences', { ...body, id: '00000000-0000-4000-8000-000000000000' });
  t.equal(unknownId.status, 404);
  t.equal(unknownId.json, 'silence not found');
});

t.test('silence validation, with Alertmanager 0.34 messages', async (t) => {
  const api = await alertApi(t);
  const base = { matchers: [{ name: 'a', value: 'b', isRegex: false }], startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString(), createdBy: 'me', comment: 'c' };
  const cases: Array<[string, Record<string, unknown>, number, unknown]> = [
    ['no comment', { ...base, comment: undefined }, 422, { code: 602, message: 'comment in body is required' }],
    ['no matchers', { ...base, matchers: [] }, 422, { code: 612, message: 'matchers in body should have at least 1 items' }],
    ['no isRegex', { ...base, matchers: [{ name: 'a', value: 'b' }] }, 422, { code: 602, message: 'matchers.0.isRegex in body is required' }],
    ['start after end', { ...base, startsAt: base.endsAt, endsAt: base.startsAt }, 400, 'Failed to create silence: start time must be before end time'],
    ['end in the past', { ...base, startsAt: ago(7_200_000), endsAt: ago(3_600_000) }, 400, "Failed to create silence: end time can't be in the past"],
    ['matches everything', { ...base, matchers: [{ name: 'job', value: '.*', isRegex: true }] }, 400, 'invalid silence: matcher set 0: at least one matcher must not match the empty string'],
    ['bad regex', { ...base, matchers: [{ name: 'job', value: '(', isRegex: true }] }, 400, /^invalid silence: invalid label matcher 0 in set 0: invalid regular expression "\(": error parsing regexp: missing closing \)/],
  ];
  for (const [what, body, status, expected] of cases) {
    const res = await api.post('/api/v2/silences', body);
    t.equal(res.status, status, `${what}: status`);
    if (expected instanceof RegExp) t.match(res.json, expected, `${what}: message`);
    else t.same(res.json, expected, `${what}: body`);
  }
  const negative = await api.post('/api/v2/silences', { ...base, matchers: [{ name: 'job', value: 'x', isRegex: false, isEqual: false }] });
  t.equal(negative.status, 200, 'a negative matcher alone is accepted');
});

t.test('status at query time: silenced, inhibited, filters on them', async (t) => {
  const api = await alertApi(t);
  const warning = { alertname: 'test1', severity: 'warning' };
  const critical = { alertname: 'test1', severity: 'critical' };
  await api.post('/api/v2/alerts', [{ labels: warning }]);
  const silence = await api.post('/api/v2/silences', {
    matchers: [{ name: 'alertname', value: 'test1', isRegex: false }],
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    createdBy: 'me',
    comment: 'c',
  });
  const id = (silence.json as { silenceID: string }).silenceID;
  const first = (await api.get('/api/v2/alerts')).json as Array<{ status: Record<string, unknown> }>;
  t.same(first.map((a) => a.status), [{ inhibitedBy: [], mutedBy: [], silencedBy: [id], state: 'suppressed' }]);
  await api.post('/api/v2/alerts', [{ labels: critical }]);
  const both = (await api.get('/api/v2/alerts')).json as Array<{ fingerprint: string; status: { inhibitedBy: string[]; silencedBy: string[] } }>;
  const warned = both.find((a) => a.fingerprint === fingerprint(warning));
  t.same(warned?.status.inhibitedBy, [fingerprint(critical)], 'the critical alert inhibits the warning');
  t.same(warned?.status.silencedBy, [id]);
  await api.del(`/api/v2/silence/${id}`);
  const after = (await api.get('/api/v2/alerts')).json as Array<{ fingerprint: string; status: { state: string } }>;
  t.same(after.map((a) => [a.fingerprint === fingerprint(critical) ? 'critical' : 'warning', a.status.state]).sort(), [['critical', 'active'], ['warning', 'suppressed']]);
  const unsuppressed = (await api.get('/api/v2/alerts?inhibited=false&silenced=false')).json as unknown[];
  t.equal(unsuppressed.length, 1, 'inhibited=false leaves the inhibited alert out');
  const suppressedOnly = (await api.get('/api/v2/alerts?active=false')).json as unknown[];
  t.equal(suppressedOnly.length, 1, 'active=false keeps only suppressed alerts');
  t.equal(((await api.get('/api/v2/alerts?active=foo')).json as unknown[]).length, 1, 'an unknown word is false, never an error');
});

t.test('GET /alerts/groups: grouping by route and group_by, sorted, receivers unioned', async (t) => {
  const api = await alertApi(t);
  await api.post('/api/v2/alerts', [
    { labels: { alertname: 'A1', instance: 'i1', severity: 'warning', team: 'a' } },
    { labels: { alertname: 'A1', instance: 'i2', severity: 'critical', team: 'b' } },
    { labels: { alertname: 'A1', instance: 'i3' } },
    { labels: { alertname: 'OK2' } },
  ]);
  const res = await api.valid(t, 'getAlertGroups', '/api/v2/alerts/groups');
  const groups = res.json as Array<{ labels: Record<string, string>; receiver: { name: string }; routeLabels: unknown; alerts: Array<{ labels: Record<string, string>; receivers: unknown }> }>;
  t.same(
    groups.map((g) => [g.receiver.name, g.labels]),
    [
      ['default', { alertname: 'A1' }],
      ['default', { alertname: 'OK2' }],
      ['team-a', { alertname: 'A1', instance: 'i1' }],
      ['team-b', { alertname: 'A1', instance: 'i2', severity: 'critical', team: 'b' }],
    ],
    'fewer labels first, then by name and value, then by receiver',
  );
  const a1 = groups.find((g) => g.receiver.name === 'team-a')?.alerts[0];
  t.same(a1?.receivers, [{ name: 'team-a' }], 'the receivers of the groups holding the alert');
  t.same(groups[0]?.routeLabels, {});
  const filtered = (await api.get('/api/v2/alerts/groups?receiver=team-a')).json as unknown[];
  t.equal(filtered.length, 1);
});
