/**
 * The Alertmanager test harness proved on the real thing: Debian's Alertmanager 0.25 started
 * from a config text, driven by the real amtool and fed by a real Prometheus, its API v2
 * responses checked against upstream's OpenAPI specs. The service's own /api/v2/ is compared
 * with this reference elsewhere; here nothing of the service runs.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { validateResponse } from '../support/alertmanager-schema.js';
import { amtool, type AmtoolResult } from '../support/amtool.js';
import { startHttpSink } from '../support/http-sink.js';
import { startRealAlertmanager } from '../support/real-alertmanager.js';
import { alwaysFiring, startRealPrometheus } from '../support/real-prometheus.js';
import { httpRequest } from '../support/http-request.js';
import { waitFor } from '../support/wait-for.js';
import type { Teardown } from '../support/teardown.js';
import { tempDir } from '../support/temp-dir.js';

/** One webhook delivery, as Alertmanager posted it. */
interface Delivery {
  path: string;
  userAgent: string | undefined;
  body: {
    receiver?: string;
    status?: string;
    externalURL?: string;
    groupKey?: string;
    groupLabels?: Record<string, string>;
    alerts?: Array<{ labels: Record<string, string>; status: string }>;
  };
}

/** A webhook receiver on a free port that records every POST and answers 200. */
async function startWebhookSink(t: Teardown): Promise<{ url: string; readonly deliveries: Delivery[] }> {
  const sink = await startHttpSink(t);
  return {
    url: `${sink.url}/hook`,
    get deliveries() {
      return sink.requests.map((r) => ({ path: r.path, userAgent: r.headers['user-agent'], body: JSON.parse(r.body) as Delivery['body'] }));
    },
  };
}

/** Asserts that amtool exited 0; on failure tap shows what amtool printed. */
function expectSuccess(t: Test, r: AmtoolResult, what: string): void {
  t.equal(r.code, 0, `${what} exits 0`, { stdout: r.stdout, stderr: r.stderr });
}

const sink = await startWebhookSink(t);
const CONFIG = `route:
  receiver: harness-webhook
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: harness-webhook
    webhook_configs:
      - url: ${sink.url}
        send_resolved: true
inhibit_rules:
  - source_matchers: ['severity="critical"']
    target_matchers: ['severity="warning"']
    equal: [alertname]
`;
const am = await startRealAlertmanager(t, { config: CONFIG });

let silenceId = '';

t.test('amtool alert add, then alert query lists it, and the webhook is notified', async (t) => {
  const add = await amtool(am.url, ['alert', 'add', 'alertname=harness', 'severity=warning']);
  expectSuccess(t, add, 'alert add');
  t.equal(add.stdout, '', 'alert add prints nothing');

  const query = await amtool(am.url, ['alert', 'query']);
  expectSuccess(t, query, 'alert query');
  const lines = query.stdout.trimEnd().split('\n');
  t.match(lines[0], /^Alertname\s+Starts At\s+Summary\s+State\s*$/, 'header row');
  t.equal(lines.length, 2, 'one alert row', { stdout: query.stdout });
  t.match(lines[1], /^harness\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\s+active\s*$/, 'the alert, active, empty summary');

  // group_wait is 1s; the group is keyed by alertname only.
  const delivery = await waitFor('the webhook notification', () => sink.deliveries.find((d) => d.body.groupLabels?.['alertname'] === 'harness'), 15_000);
  t.equal(delivery.path, '/hook', 'posted to the configured URL');
  t.equal(delivery.userAgent, 'Alertmanager/0.25.0');
  t.equal(delivery.body.receiver, 'harness-webhook');
  t.equal(delivery.body.status, 'firing');
  t.equal(delivery.body.externalURL, am.externalUrl, 'externalURL is --web.external-url');
  t.equal(delivery.body.groupKey, '{}:{alertname="harness"}', 'group key: root route, group_by alertname');
  t.same(
    delivery.body.alerts?.map((a) => [a.status, a.labels]),
    [['firing', { alertname: 'harness', severity: 'warning' }]],
    'the one alert, firing',
  );
});

t.test('amtool silence add returns an id that silence query -q lists', async (t) => {
  const add = await amtool(am.url, ['silence', 'add', 'alertname=harness', '--comment=x']);
  expectSuccess(t, add, 'silence add');
  silenceId = add.stdout.trim();
  t.match(silenceId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a UUID on stdout, nothing else');

  const query = await amtool(am.url, ['silence', 'query', '-q']);
  expectSuccess(t, query, 'silence query -q');
  t.equal(query.stdout, `${silenceId}\n`, 'just the id');

  // The silence applies at once: amtool's default query (active, not silenced) no longer shows it.
  const alerts = await amtool(am.url, ['alert', 'query']);
  expectSuccess(t, alerts, 'alert query');
  t.match(alerts.stdout.trimEnd(), /^Alertname\s+Starts At\s+Summary\s+State$/, 'only the header row');
  const silenced = await amtool(am.url, ['alert', 'query', '--silenced']);
  expectSuccess(t, silenced, 'alert query --silenced');
  t.match(silenced.stdout, /\nharness\s+.*UTC\s+suppressed\s*\n$/, '--silenced shows it suppressed');
});

t.test('amtool config show prints the loaded config, defaults filled in', async (t) => {
  const r = await amtool(am.url, ['config', 'show']);
  expectSuccess(t, r, 'config show');
  // Not the file's text: Alertmanager re-serialises the config it loaded (config.original).
  t.match(r.stdout, /^global:\n {2}resolve_timeout: 5m\n/);
  t.match(r.stdout, /\nroute:\n {2}receiver: harness-webhook\n {2}group_by:\n {2}- alertname\n/);
  t.match(r.stdout, /\ninhibit_rules:\n- source_matchers:\n {2}- severity="critical"\n/);
  t.match(r.stdout, `\n    url: ${sink.url}\n`);
});

t.test('amtool cluster show reports clustering disabled', async (t) => {
  const r = await amtool(am.url, ['cluster', 'show']);
  expectSuccess(t, r, 'cluster show');
  t.equal(r.stdout, 'Cluster Status:  disabled\nNode Name:       \n', 'status and an empty node name');
});

t.test('amtool against nothing fails cleanly (the harness does not hang)', async (t) => {
  const r = await amtool('http://127.0.0.1:1', ['alert', 'query'], { timeoutMs: 10_000 });
  t.equal(r.code, 1, 'exit code 1', { stdout: r.stdout, stderr: r.stderr });
  t.match(r.stderr, /^amtool: error: Get "http:\/\/127\.0\.0\.1:1\/api\/v2\/alerts\?active=true&inhibited=false&silenced=false&unprocessed=false": dial tcp 127\.0\.0\.1:1: connect: connection refused\n/);
});

/**
 * What 0.25 returns, against both specs: valid for its own, and for v0.34 missing exactly the
 * fields added since (alertStatus.mutedBy 0.28, gettableSilence.annotations 0.32,
 * alertGroup.routeLabels 0.34).
 */
t.test('API v2 responses validate against the v0.25 spec; the v0.34 one wants the newer fields', async (t) => {
  const cases: Array<[string, string, string[]]> = [
    ['/api/v2/alerts', 'getAlerts', ["/0/status must have required property 'mutedBy'"]],
    ['/api/v2/alerts/groups', 'getAlertGroups', ["/0 must have required property 'routeLabels'", "/0/alerts/0/status must have required property 'mutedBy'"]],
    ['/api/v2/silences', 'getSilences', ["/0 must have required property 'annotations'"]],
    ['/api/v2/status', 'getStatus', []],
    ['/api/v2/receivers', 'getReceivers', []],
  ];
  for (const [path, operation, v034Errors] of cases) {
    const r = await am.request(path);
    t.equal(r.status, 200, `${path} answers 200`, { body: r.text });
    t.equal(r.headers['content-type'], 'application/json', `${path} content-type`);
    t.same(validateResponse('v0.25', operation, 200, r.json), [], `${path} is a valid ${operation} response (v0.25)`);
    t.same(validateResponse('v0.34', operation, 200, r.json), v034Errors, `${path} against v0.34`);
  }

  const alerts = (await am.request('/api/v2/alerts')).json as Array<{ status: unknown }>;
  t.same(alerts.map((a) => a.status), [{ inhibitedBy: [], silencedBy: [silenceId], state: 'suppressed' }]);
  const status = (await am.request('/api/v2/status')).json as { cluster: unknown; versionInfo: { version: string } };
  t.same(status.cluster, { peers: [], status: 'disabled' });
  t.equal(status.versionInfo.version, '0.25.0');
});

t.test('the inhibit rule: a critical alert inhibits the warning with the same alertname', async (t) => {
  for (const severity of ['critical', 'warning']) {
    const add = await amtool(am.url, ['alert', 'add', 'alertname=inhibition', `severity=${severity}`]);
    expectSuccess(t, add, `alert add ${severity}`);
  }
  type Listed = { labels: Record<string, string>; fingerprint: string; status: { state: string; inhibitedBy: string[] } };
  const filter = encodeURIComponent('alertname="inhibition"');
  // The inhibitor learns of new alerts asynchronously, so the first GET may not show it yet.
  const alerts = await waitFor('the warning to be inhibited', async () => {
    const listed = (await am.request(`/api/v2/alerts?filter=${filter}`)).json as Listed[];
    return listed.find((a) => a.labels['severity'] === 'warning')?.status.state === 'suppressed' && listed;
  });
  const critical = alerts.find((a) => a.labels['severity'] === 'critical');
  const warning = alerts.find((a) => a.labels['severity'] === 'warning');
  t.same(critical?.status, { inhibitedBy: [], silencedBy: [], state: 'active' });
  t.same(warning?.status, { inhibitedBy: [critical?.fingerprint], silencedBy: [], state: 'suppressed' }, 'inhibitedBy names the source alert');
  const query = await amtool(am.url, ['alert', 'query', '--inhibited', 'alertname=inhibition']);
  expectSuccess(t, query, 'alert query --inhibited');
  // --inhibited alone sends active=false: only the inhibited alert is listed.
  t.match(query.stdout, /^Alertname +Starts At +Summary +State *\ninhibition +.* UTC +suppressed *\n$/);
});

t.test('the validator is not vacuous', async (t) => {
  t.same(validateResponse('v0.25', 'getReceivers', 200, [{ name: 'r' }]), []);
  t.same(validateResponse('v0.25', 'getReceivers', 200, [{}]), ["/0 must have required property 'name'"]);
  t.same(validateResponse('v0.25', 'getAlerts', 200, {}), ['/ must be array']);
  t.same(
    validateResponse('v0.25', 'getSilences', 200, [
      {
        id: 'x',
        status: { state: 'gone' },
        updatedAt: 'yesterday',
        comment: '',
        createdBy: '',
        startsAt: '2026-01-01T00:00:00.000Z',
        endsAt: '2026-01-01T01:00:00Z',
        matchers: [],
      },
    ]),
    ['/0/status/state must be equal to one of the allowed values ["expired","active","pending"]', '/0/updatedAt must match format "date-time"', '/0/matchers must NOT have fewer than 1 items'],
  );
  // Shared responses (`$ref: '#/responses/BadRequest'`) resolve; a body-less response takes anything.
  t.same(validateResponse('v0.34', 'getAlerts', 400, 'bad filter'), []);
  t.same(validateResponse('v0.34', 'getAlerts', 400, { error: 1 }), ['/ must be string']);
  t.same(validateResponse('v0.25', 'deleteSilence', 200, undefined), []);
  t.throws(() => validateResponse('v0.25', 'getSilence', 418, {}), /declares no 418 response/);
  t.throws(() => validateResponse('v0.25', 'getNothing', 200, {}), /has no operation getNothing/);
});

t.test("amtool reads Debian's ~/.config/prometheus/amtool.yml from the HOME it is given", async (t) => {
  const home = await tempDir(t, 'amtool-home-');
  await mkdir(join(home, '.config', 'prometheus'), { recursive: true });
  await writeFile(join(home, '.config', 'prometheus', 'amtool.yml'), `alertmanager.url: ${am.url}\n`);
  const r = await amtool('unused', ['cluster', 'show'], { urlFlag: false, home });
  expectSuccess(t, r, 'cluster show, URL from amtool.yml');
  t.match(r.stdout, /^Cluster Status: {2}disabled\n/);
  // Without flag or file amtool would talk to its default URL (not tried: a packaged
  // Alertmanager may be running there).
  const help = await amtool('unused', ['--help'], { urlFlag: false });
  expectSuccess(t, help, '--help');
  t.match(help.stdout + help.stderr, /--alertmanager\.url=http:\/\/localhost:9093\/\s/, 'the default URL');
  t.match(help.stdout + help.stderr, /\$HOME\/\.config\/prometheus\/amtool\.yml or\s+\/etc\/prometheus\/amtool\.yml/, 'where it looks for config');
});

t.test('reload: the same config is accepted, a broken one refused and the old one kept', async (t) => {
  const same = await am.reload();
  t.equal(same.status, 200, 'reload with the unchanged file', { body: same.text });
  const broken = await am.reload(CONFIG.replace('  receiver: harness-webhook', '  receiver: nobody'));
  t.equal(broken.status, 500, 'a route naming an unknown receiver', { body: broken.text });
  t.match(broken.text, /undefined receiver "nobody" used in route/);
  const receivers = await am.request('/api/v2/receivers');
  t.same(receivers.json, [{ name: 'harness-webhook' }], 'the old config still serves');
  const restored = await am.reload(CONFIG);
  t.equal(restored.status, 200, 'reload with the original config', { body: restored.text });
});

t.test('Prometheus posts its always-firing alert to the real Alertmanager', async (t) => {
  const labels = { severity: 'info', team: 'harness' };
  const prom = await startRealPrometheus(t, {
    alertmanager: `127.0.0.1:${am.port}`,
    ruleGroup: alwaysFiring('HarnessAlwaysFiring', labels, { summary: 'always firing' }),
  });
  const filter = encodeURIComponent('alertname="HarnessAlwaysFiring"');
  const alert = await waitFor(
    'the Prometheus alert on Alertmanager',
    async () => {
      const r = await httpRequest(`${am.url}/api/v2/alerts?filter=${filter}`);
      return (r.json as Array<Record<string, unknown>> | undefined)?.[0];
    },
    60_000,
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nPrometheus output:\n${prom.logs}`);
  });
  t.same(alert['labels'], { alertname: 'HarnessAlwaysFiring', ...labels });
  t.same(alert['annotations'], { summary: 'always firing' });
  t.match(alert['generatorURL'], `${prom.url}/graph?g0.expr=vector%281%29&g0.tab=1`);
  t.same(alert['status'], { inhibitedBy: [], silencedBy: [], state: 'active' });
  const all = await am.request('/api/v2/alerts');
  t.same(validateResponse('v0.25', 'getAlerts', 200, all.json), []);
});
