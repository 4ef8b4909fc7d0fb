/**
 * The service beside a real Alertmanager 0.25 (Debian's), same configuration, same requests:
 * responses are compared after normalising what must differ (random silence ids, timestamps),
 * and the differences between Alertmanager 0.25 and the v0.34 API this service implements are
 * named below; nothing else may differ. Then amtool 0.25 against both, and Prometheus 2.42
 * posting to the service.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { amtool } from '../support/amtool.js';
import { ALERTMANAGER_FIXTURES_DIR } from '../support/alertmanager-schema.js';
import { startRealAlertmanager } from '../support/real-alertmanager.js';
import { alwaysFiring, startRealPrometheus } from '../support/real-prometheus.js';
import { startService } from '../support/service-harness.js';
import { httpRequest, type HttpResult } from '../support/http-request.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const CONFIG = readFileSync(new URL('teams.yml', ALERTMANAGER_FIXTURES_DIR), 'utf8');

/**
 * Version differences between Alertmanager 0.25 and the v0.34 API, removed from our responses
 * before comparing: `status.mutedBy` (0.28), receiver `labels` (0.33), group `routeLabels`
 * (0.34), silence `annotations` (0.32).
 */
function withoutNewerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNewerFields);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const isSilence = 'createdBy' in value;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'mutedBy' || key === 'routeLabels' || (isSilence && key === 'annotations')) continue;
    if (key === 'labels' && typeof v === 'object' && v !== null && Object.keys(v).length === 1 && 'name' in v) continue;
    out[key] = withoutNewerFields(v);
  }
  return out;
}

/** Timestamps and silence ids differ by nature; they become placeholders (ids numbered in order of appearance). */
function normalised(value: unknown, ids = new Map<string, string>()): unknown {
  if (Array.isArray(value)) return value.map((v) => normalised(v, ids));
  if (typeof value === 'string') {
    // go-openapi lists the allowed methods of a 405 from a Go map: in no fixed order.
    if (value.startsWith('method ')) return value.replace(/\[([A-Z,]+)\]/, (_, list: string) => `[${list.split(',').sort().join(',')}]`);
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)) return '<time>';
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
      if (!ids.has(value)) ids.set(value, `<silence ${ids.size + 1}>`);
      return ids.get(value);
    }
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[key] = key === 'annotations' ? v : normalised(v, ids);
  return out;
}

interface Side {
  name: string;
  url: string;
  request(path: string, method?: string, body?: unknown): Promise<HttpResult>;
}

async function both(t: Test): Promise<[Side, Side]> {
  const dir = await tempDir(t, 'rl-am-cmp-');
  const file = join(dir, 'alertmanager.yml');
  await writeFile(file, CONFIG);
  const service = await startService(t, { env: { APIS: 'alerts', ALERTMANAGER_CONFIG: file } });
  const real = await startRealAlertmanager(t, { config: CONFIG });
  const side = (name: string, url: string): Side => ({
    name,
    url,
    request: (path, method = 'GET', body) =>
      httpRequest(`${url}${path}`, body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return [side('service', service.baseUrl), side('alertmanager 0.25', real.url)];
}

const hour = () => new Date(Date.now() + 3_600_000).toISOString();

t.test('same requests, same answers as Alertmanager 0.25 (but for the named version differences)', async (t) => {
  const [ours, theirs] = await both(t);
  const steps: Array<{ what: string; method?: string; path: string; body?: unknown }> = [
    { what: 'post alerts', method: 'POST', path: '/api/v2/alerts', body: [
      { labels: { alertname: 'A1', instance: 'i1', severity: 'warning', team: 'a' }, annotations: { summary: 's1' } },
      { labels: { alertname: 'A1', instance: 'i2', severity: 'critical', team: 'b' } },
      { labels: { alertname: 'OK2' }, generatorURL: 'http://prometheus/graph' },
      { labels: { alertname: 'C', team: 'c', job: 'j' } },
    ] },
    { what: 'silence OK2', method: 'POST', path: '/api/v2/silences', body: { matchers: [{ name: 'alertname', value: 'OK2', isRegex: false }], startsAt: new Date().toISOString(), endsAt: hour(), createdBy: 'me', comment: 'c' } },
    { what: 'all alerts', path: '/api/v2/alerts' },
    { what: 'filtered alerts', path: `/api/v2/alerts?filter=${encodeURIComponent('team=~"a|b"')}&silenced=false` },
    { what: 'alerts of receiver team-b', path: '/api/v2/alerts?receiver=team-b' },
    { what: 'active only', path: '/api/v2/alerts?active=true&silenced=false&inhibited=false' },
    { what: 'groups', path: '/api/v2/alerts/groups' },
    { what: 'groups of team-a', path: '/api/v2/alerts/groups?receiver=team-a' },
    { what: 'silences', path: '/api/v2/silences' },
    { what: 'silences filtered', path: `/api/v2/silences?filter=${encodeURIComponent('alertname=OK2')}` },
    { what: 'receivers', path: '/api/v2/receivers' },
    { what: 'bad filter', path: '/api/v2/alerts?filter=team' },
    { what: 'bad receiver regex', path: '/api/v2/alerts?receiver=(' },
    { what: 'bad body', method: 'POST', path: '/api/v2/alerts', body: {} },
    { what: 'labels missing', method: 'POST', path: '/api/v2/alerts', body: [{ annotations: {} }] },
    { what: 'silence ending in the past', method: 'POST', path: '/api/v2/silences', body: { matchers: [{ name: 'a', value: 'b', isRegex: false }], startsAt: new Date(Date.now() - 7_200_000).toISOString(), endsAt: new Date(Date.now() - 3_600_000).toISOString(), createdBy: 'me', comment: 'c' } },
    { what: 'silence with no matchers', method: 'POST', path: '/api/v2/silences', body: { matchers: [], startsAt: new Date().toISOString(), endsAt: hour(), createdBy: 'me', comment: 'c' } },
    { what: 'silence of an unknown id', method: 'POST', path: '/api/v2/silences', body: { id: '00000000-0000-4000-8000-000000000000', matchers: [{ name: 'a', value: 'b', isRegex: false }], startsAt: new Date().toISOString(), endsAt: hour(), createdBy: 'me', comment: 'c' } },
    { what: 'a malformed silence id', path: '/api/v2/silence/foo' },
    { what: 'an unknown path', path: '/api/v2/foo' },
    { what: 'a wrong method', method: 'PUT', path: '/api/v2/alerts' },
  ];
  for (const step of steps) {
    const [a, b] = await Promise.all([ours.request(step.path, step.method, step.body), theirs.request(step.path, step.method, step.body)]);
    t.equal(a.status, b.status, `${step.what}: status (${b.status})`);
    t.same(normalised(withoutNewerFields(a.json ?? a.text)), normalised(b.json ?? b.text), `${step.what}: body`);
  }
  // Named differences, checked so they stay the only ones:
  const unknownDelete = await Promise.all([ours.request('/api/v2/silence/00000000-0000-4000-8000-000000000000', 'DELETE'), theirs.request('/api/v2/silence/00000000-0000-4000-8000-000000000000', 'DELETE')]);
  t.same([unknownDelete[0].status, unknownDelete[1].status], [404, 500], 'DELETE of an unknown silence: 404 since 0.26 (0.25 answered 500)');
  const twoBad = [{ labels: { x: '' } }, { labels: { a: 'b' }, startsAt: hour() }];
  const joined = await Promise.all([ours.request('/api/v2/alerts', 'POST', twoBad), theirs.request('/api/v2/alerts', 'POST', twoBad)]);
  t.same([joined[0].json, joined[1].json], ['at least one label pair required\nstart time must be before end time', 'at least one label pair required; start time must be before end time'], 'errors joined by a newline since 0.32 (0.25: "; ")');
  const everything = { matchers: [{ name: 'job', value: '.*', isRegex: true }], startsAt: new Date().toISOString(), endsAt: hour(), createdBy: 'me', comment: 'c' };
  const empty = await Promise.all([ours.request('/api/v2/silences', 'POST', everything), theirs.request('/api/v2/silences', 'POST', everything)]);
  t.same([empty[0].json, empty[1].json], ['invalid silence: matcher set 0: at least one matcher must not match the empty string', 'silence invalid: at least one matcher must not match the empty string'], 'silence errors: "invalid silence" and matcher sets since 0.28/0.33');
});

/**
 * Times as Go 1.19's time.Parse reads them in go-openapi's layouts, then go-openapi's date-time
 * check on the time written back: an offset of 100 hours or more (`+99:99`) parses but is refused
 * with 422, an offset without a colon only follows exactly 3 or 6 fractional digits, and the error
 * of the last layout tried is the one reported, with Go's quoting of bytes.
 */
const TIMES = [
  '2026-11-26T00:00:00+99:99',
  '2026-11-26T00:00:00.000-99:60',
  '2026-11-26T00:00:00+99:59',
  '2026-11-26T00:00:00+0200',
  '2026-11-26T00:00:00.000+0200',
  '2026-11-26T00:00:00.1234+0200',
  '2026-11-26T00:00:00,5Z',
  '2026-11-26T0:00:00Z',
  '2026-11-26T24:00:00Z',
  '2026-13-01T00:00:00Z',
  '2023-02-29 00:00:00',
  '2026-11-26 00:00:00Z',
  '2026-11-26',
  '2026-11-26t00:00:00z',
  '2026-11-26T00:00:00é',
];

t.test('times in alerts and silences: the same 200, 400 or 422 as Alertmanager 0.25, word for word', async (t) => {
  const [ours, theirs] = await both(t);
  const silence = (times: Record<string, unknown>, over: Record<string, unknown> = {}) => ({ matchers: [{ name: 'a', value: 'b', isRegex: false }], endsAt: '2030-01-01T00:00:00Z', createdBy: 'me', comment: 'c', ...times, ...over });
  const cases: Array<{ what: string; path: string; body: unknown }> = [];
  for (const time of TIMES) {
    cases.push({ what: `alert startsAt ${time}`, path: '/api/v2/alerts', body: [{ labels: { alertname: 'T' }, startsAt: time, endsAt: '2030-01-01T00:00:00Z' }] });
    cases.push({ what: `silence startsAt ${time}`, path: '/api/v2/silences', body: silence({ startsAt: time }) });
  }
  const late = '2026-11-26T00:00:00+99:99';
  cases.push(
    { what: 'an alert with a bad generatorURL and a late offset: the time is reported', path: '/api/v2/alerts', body: [{ labels: { a: '1' }, generatorURL: 'a b', startsAt: late }] },
    { what: 'an alert with both times late: endsAt is reported', path: '/api/v2/alerts', body: [{ labels: { a: '1' }, startsAt: late, endsAt: '2026-11-26T00:00:00+99:98' }] },
    { what: 'no labels and a bad generatorURL: the URL is reported', path: '/api/v2/alerts', body: [{ generatorURL: 'a b' }] },
    { what: 'the first element with an error is reported', path: '/api/v2/alerts', body: [{ labels: { a: '1' } }, { startsAt: late }] },
    { what: 'a silence with no matchers and a late endsAt: endsAt is reported', path: '/api/v2/silences', body: silence({ startsAt: late, endsAt: late }, { matchers: [] }) },
    { what: 'a matcher without isRegex comes before a late startsAt', path: '/api/v2/silences', body: silence({ startsAt: late }, { matchers: [{ name: 'a', value: 'b' }] }) },
  );
  for (const { what, path, body } of cases) {
    const [a, b] = await Promise.all([ours.request(path, 'POST', body), theirs.request(path, 'POST', body)]);
    t.equal(a.status, b.status, `${what}: status (${b.status})`);
    t.same(normalised(a.json ?? a.text), normalised(b.json ?? b.text), `${what}: body`);
  }
});

t.test('a boolean query parameter that is not a true-word is false, never an error, as in Alertmanager 0.25', async (t) => {
  const [ours, theirs] = await both(t);
  const firing = [{ labels: { alertname: 'Firing' } }];
  await Promise.all([ours.request('/api/v2/alerts', 'POST', firing), theirs.request('/api/v2/alerts', 'POST', firing)]);
  for (const path of ['/api/v2/alerts?active=maybe', '/api/v2/alerts/groups?active=maybe', '/api/v2/silences?active=maybe', '/api/v2/alerts?active=true']) {
    const [a, b] = await Promise.all([ours.request(path), theirs.request(path)]);
    t.equal(a.status, b.status, `${path}: status (${b.status})`);
    t.same(normalised(withoutNewerFields(a.json)), normalised(b.json), `${path}: body`);
  }
});

t.test('amtool 0.25 prints the same against the service as against Alertmanager 0.25', async (t) => {
  const [ours, theirs] = await both(t);
  const run = async (args: string[]) => {
    const [a, b] = await Promise.all([amtool(ours.url, args), amtool(theirs.url, args)]);
    return { ours: a, theirs: b };
  };
  const clean = (text: string) => text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \w+/g, '<time>').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');
  const same = async (what: string, args: string[]) => {
    const r = await run(args);
    t.equal(r.ours.code, r.theirs.code, `${what}: exit code ${r.theirs.code}`);
    t.equal(clean(r.ours.stdout), clean(r.theirs.stdout), `${what}: stdout`);
    t.equal(clean(r.ours.stderr), clean(r.theirs.stderr), `${what}: stderr`);
    return r;
  };
  await same('alert add', ['alert', 'add', 'test1', 'severity=warning', '--annotation=summary=first']);
  await same('alert add with a matcher first', ['alert', 'add', 'alertname=test2', 'severity=info']);
  await same('alert add of an odd name', ['alert', 'add', '{alertname=test3}', 'severity=info']);
  await same('alert query', ['alert', 'query']);
  await same('alert query by name', ['alert', 'query', 'test1']);
  await same('alert query with a matcher', ['alert', 'query', 'alertname=test2']);
  await same('alert query of the odd name', ['alert', 'query', '{alertname=test3}']);
  const added = await same('silence add', ['silence', 'add', 'alertname=test1', 'severity=warning', '--comment=quiet']);
  await same('silence query', ['silence', 'query']);
  await same('silence query -q', ['silence', 'query', '-q']);
  await same('alert query -s (silenced shown)', ['alert', 'query', '-s']);
  const exported = await same('silence query -o json', ['silence', 'query', '-o', 'json']);
  // Each side has its own silence id, so expire runs apart.
  const expired = await Promise.all([amtool(ours.url, ['silence', 'expire', added.ours.stdout.trim()]), amtool(theirs.url, ['silence', 'expire', added.theirs.stdout.trim()])]);
  t.same([expired[0].code, expired[0].stdout], [expired[1].code, expired[1].stdout], 'silence expire');
  await same('silence query --expired', ['silence', 'query', '--expired']);
  const imported = await Promise.all([amtool(ours.url, ['silence', 'import'], { stdin: exported.ours.stdout }), amtool(theirs.url, ['silence', 'import'], { stdin: exported.theirs.stdout })]);
  t.equal(imported[0].code, imported[1].code, 'silence import: exit code');
  t.equal(clean(imported[0].stdout), clean(imported[1].stdout), 'silence import: new ids printed for expired silences');
  await same('config show', ['config', 'show']);
  await same('config routes show', ['config', 'routes', 'show']);
  await same('config routes test', ['config', 'routes', 'test', 'team=a', 'alertname=x']);
  await same('config routes test with braces', ['config', 'routes', 'test', '{foo=bar}']);
  await same('cluster show', ['cluster', 'show']);
});

t.test('Prometheus 2.42 posts an always-firing alert to the service', async (t) => {
  const service = await startService(t, { env: { APIS: 'alerts' } });
  const port = Number(new URL(service.baseUrl).port);
  await startRealPrometheus(t, { alertmanager: `127.0.0.1:${port}`, ruleGroup: alwaysFiring('AlwaysOn', { severity: 'page', team: 'ops' }, { summary: 'it fires' }) });
  const alert = await waitFor(
    'the alert from Prometheus',
    async () => ((await service.request('/api/v2/alerts')).json as Array<{ labels: Record<string, string>; annotations: Record<string, string> }>).find((a) => a.labels['alertname'] === 'AlwaysOn'),
    60_000,
    200,
  );
  t.same(alert.labels, { alertname: 'AlwaysOn', severity: 'page', team: 'ops' });
  t.same(alert.annotations, { summary: 'it fires' });
});
