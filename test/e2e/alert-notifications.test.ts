/**
 * Notifications through the real process: a webhook receives what the routing tree sends, the
 * history of attempts is served at GET /api/v2/x/notifications, the notification metrics reach
 * `/metrics` under Alertmanager's names, and kill -9 between two groups' notifications neither
 * repeats the one already sent nor loses the one that was due.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { startHttpSink, startSmtpSink } from '../support/notification-sinks.js';
import { startProcess, type ServiceProcess } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

interface Attempt {
  time: string;
  receiver: string;
  integration: string;
  groupKey: string;
  outcome: string;
  reason: string;
  firing: string[];
}

function postAlerts(proc: ServiceProcess, alerts: unknown[]) {
  return httpRequest(`${proc.baseUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
}

async function history(proc: ServiceProcess, query = ''): Promise<Attempt[]> {
  const answer = await proc.request(`/api/v2/x/notifications${query}`);
  if (answer.status !== 200) throw new Error(`history answered ${answer.status}: ${answer.text}`);
  return answer.json as Attempt[];
}

const config = (sink: string) => `
route:
  receiver: hook
  group_by: [alertname]
  group_wait: 300ms
  group_interval: 1h
  repeat_interval: 4h
receivers:
  - name: hook
    webhook_configs:
      - url: ${sink}/hook
`;

t.test('kill -9 between two groups: after the restart the sent one is not repeated and the pending one goes out', async (t) => {
  const sink = await startHttpSink(t);
  const dir = await tempDir(t, 'rl-notify-e2e-');
  const configFile = join(dir, 'alertmanager.yml');
  writeFileSync(configFile, config(sink.url));
  const env = { APIS: 'alerts', DATA_DIR: join(dir, 'data'), RUNTIME_ROOT: '/nonexistent', ALERTMANAGER_CONFIG: configFile, ALERTMANAGER_EXTERNAL_URL: 'http://alerts.example:9093/' };
  const first = await startProcess(t, env);
  t.equal((await postAlerts(first, [{ labels: { alertname: 'Sent' } }])).status, 200);
  const sent = await sink.nth(1);
  t.match(sent.json, { receiver: 'hook', status: 'firing', groupKey: '{}:{alertname="Sent"}', externalURL: 'http://alerts.example:9093', version: '4' }, 'the webhook got the first group');
  t.match(await history(first), [{ receiver: 'hook', integration: 'webhook[0]', groupKey: '{}:{alertname="Sent"}', outcome: 'sent', reason: 'first notification' }], 'and the history says so');

  t.equal((await postAlerts(first, [{ labels: { alertname: 'Pending' } }])).status, 200);
  // Acknowledged, so stored; its group_wait (300 ms) has not passed.
  first.kill('SIGKILL');
  await first.waitForExit();
  t.equal(sink.requests.length, 1, 'killed before the second group was due');

  const second = await startProcess(t, env);
  const pending = await sink.nth(2);
  t.match(pending.json, { groupKey: '{}:{alertname="Pending"}' }, 'the pending group went out after the restart');
  // The attempt is kept once the webhook's answer is in, just after the sink saw the request.
  let attempts: Attempt[] = [];
  await waitFor('the attempt in the history', async () => (attempts = await history(second)).some((a) => a.groupKey.includes('Pending')), 5000, 20);
  t.same(
    attempts.map((a) => [a.groupKey, a.outcome]).sort(),
    [
      ['{}:{alertname="Pending"}', 'sent'],
      ['{}:{alertname="Sent"}', 'sent'],
    ],
    'one attempt per group over both lives: the first group was not repeated',
  );
  t.same((await history(second, '?group=%7B%7D%3A%7Balertname%3D%22Sent%22%7D')).length, 1, 'filtered by group');
  t.same((await history(second, '?receiver=other')).length, 0, 'filtered by receiver');
  t.same((await history(second, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).length, 0, 'filtered by time');
  const bad = await second.request('/api/v2/x/notifications?limit=0');
  t.same([bad.status, bad.json], [400, 'limit must be an integer from 1 to 1000, got "0"'], 'a bad filter is a 400 naming it');

  // The API thread's statistics reach the page with its next delta.
  let metrics = await second.debug('/metrics');
  await waitFor('the notification metrics on /metrics', async () => (metrics = await second.debug('/metrics')).text.includes('alertmanager_notifications_total'), 10_000, 50);
  t.match(metrics.text, /alertmanager_notifications_total\{integration="webhook"\} 1/, 'alertmanager_notifications_total on /metrics');
  t.match(metrics.text, /alertmanager_notification_latency_seconds_count\{integration="webhook"\} 1/, 'and the latency histogram');
  t.equal(sink.requests.length, 2, 'two notifications in all');
});
t.test('a receiver kind this service does not send is named in the log at load, not dropped silently', async (t) => {
  const dir = await tempDir(t, 'rl-notify-kinds-');
  const configFile = join(dir, 'alertmanager.yml');
  writeFileSync(configFile, 'route:\n  receiver: ops\nreceivers:\n  - name: ops\n    opsgenie_configs:\n      - api_key: xyz\n');
  const proc = await startProcess(t, { APIS: 'alerts', DATA_DIR: join(dir, 'data'), RUNTIME_ROOT: '/nonexistent', ALERTMANAGER_CONFIG: configFile });
  await proc.waitFor('the unsupported receiver line', (output) => /receiver \\"ops\\" has 1 opsgenie_configs entry, which this service does not send/.test(output) || undefined);
  t.pass('logged');
});

t.test('one receiver with every kind this service sends: webhook, email (a user template), Slack, PagerDuty and Teams all get the group', async (t) => {
  const http = await startHttpSink(t);
  const smtp = await startSmtpSink(t);
  const dir = await tempDir(t, 'rl-notify-kinds-');
  writeFileSync(join(dir, 'mail.tmpl'), '{{ define "mail.subject" }}[{{ .Status | toUpper }}] {{ .CommonLabels.alertname }} on {{ .CommonLabels.instance }}{{ end }}');
  const configFile = join(dir, 'alertmanager.yml');
  writeFileSync(
    configFile,
    `global:
  smtp_smarthost: 127.0.0.1:${smtp.port}
  smtp_from: alerts@example.org
  smtp_require_tls: false
templates: ['*.tmpl']
route:
  receiver: all
  group_by: [alertname]
  group_wait: 0s
receivers:
  - name: all
    webhook_configs: [{ url: '${http.url}/webhook' }]
    email_configs: [{ to: oncall@example.org, headers: { Subject: '{{ template "mail.subject" . }}' } }]
    slack_configs: [{ api_url: '${http.url}/slack', channel: '#ops' }]
    pagerduty_configs: [{ routing_key: key, url: '${http.url}/pagerduty' }]
    msteams_configs: [{ webhook_url: '${http.url}/teams' }]
`,
  );
  const proc = await startProcess(t, { APIS: 'alerts', DATA_DIR: join(dir, 'data'), RUNTIME_ROOT: '/nonexistent', ALERTMANAGER_CONFIG: configFile });
  t.equal((await postAlerts(proc, [{ labels: { alertname: 'DiskFull', instance: 'db1' } }])).status, 200);
  const mail = await smtp.nth(1);
  await http.nth(4);
  t.equal(mail.parsed.subject, '[FIRING] DiskFull on db1', "the email's subject comes from the user's template file");
  t.same(mail.to, ['oncall@example.org']);
  t.same(http.requests.map((r) => r.path).sort(), ['/pagerduty', '/slack', '/teams', '/webhook']);
  const byPath = new Map(http.requests.map((r) => [r.path, r.json as Record<string, unknown>]));
  t.match(byPath.get('/slack'), { channel: '#ops', attachments: [{ title: '[FIRING:1] DiskFull (db1)' }] }, "Slack's default title");
  t.match(byPath.get('/pagerduty'), { routing_key: 'key', event_action: 'trigger' });
  t.match(byPath.get('/teams'), { type: 'MessageCard', title: '[FIRING:1] DiskFull (db1)' }, "Teams' default title");
  let attempts: Attempt[] = [];
  await waitFor('five attempts in the history', async () => (attempts = await history(proc)).length >= 5, 5000, 20);
  t.same(attempts.map((a) => a.integration).sort(), ['email[0]', 'msteams[0]', 'pagerduty[0]', 'slack[0]', 'webhook[0]'], 'each integration is in the history');
});

t.test('SIGTERM while a receiver never answers: the process stops at once, not when the send would time out', async (t) => {
  const hung = createServer(() => undefined);
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    hung.closeAllConnections();
    hung.close();
  });
  let reached!: () => void;
  const requestArrived = new Promise<void>((resolve) => (reached = resolve));
  hung.on('request', () => reached());
  const dir = await tempDir(t, 'rl-notify-hung-');
  const configFile = join(dir, 'alertmanager.yml');
  writeFileSync(configFile, config(`http://127.0.0.1:${(hung.address() as AddressInfo).port}`));
  const proc = await startProcess(t, { APIS: 'alerts', DATA_DIR: join(dir, 'data'), RUNTIME_ROOT: '/nonexistent', ALERTMANAGER_CONFIG: configFile });
  t.equal((await postAlerts(proc, [{ labels: { alertname: 'Hung' } }])).status, 200);
  await requestArrived;
  proc.kill('SIGTERM');
  // group_interval is 1h: without a bound the send would hold the stop that long.
  const exit = await proc.waitForExit(15_000);
  t.same(exit, { code: 0, signal: null }, 'exited by itself, cleanly');
  t.match(proc.output, /notify retry canceled|notify failed/, 'the abandoned send is logged');
});
