/**
 * Email, Slack and PagerDuty messages side by side with the real Alertmanager 0.25's: the same
 * configuration sends the same alert group through Alertmanager to the sinks and through this
 * service's integrations to the sinks, and the messages must agree on everything that does not
 * vary per send (for email: Subject, To, From and both bodies; not Date or Message-Id). Once
 * with literal texts (every field set, the message structure compared), once with
 * Alertmanager's default templates.
 */
import t from 'tap';
import type { HttpConfig } from '../../src/alerts/config/index.js';
import { createHttpSender } from '../../src/alerts/notify/http-client.js';
import { otherIntegrations } from '../../src/alerts/notify/receivers/index.js';
import { compileTemplates } from '../../src/alerts/templates/compile-templates.js';
import { startHttpSink, startSmtpSink } from '../support/notification-sinks.js';
import { startRealAlertmanager } from '../support/real-alertmanager.js';
import { literalTemplates, receiverFrom, requestFor } from '../support/receiver-fixtures.js';

t.test('Alertmanager 0.25 and this service send the same email, Slack message and PagerDuty event for one group', async (t) => {
  const smtp = await startSmtpSink(t);
  const http = await startHttpSink(t);
  const global = `  smtp_smarthost: ${smtp.host}:${smtp.port}\n  smtp_from: Alertmanager <am@example.org>\n  smtp_require_tls: false\n`;
  const integrations =
    '  email_configs:\n  - to: "ops@example.org, Second <second@example.org>"\n' +
    '    headers: {Subject: "Disque plein ✓", X-Team: storage}\n    html: "<p>Disk <b>full</b> &amp; more</p>"\n    text: "Disk full\\nsecond line with trailing space \\nend"\n' +
    `  slack_configs:\n  - api_url: ${http.url}/slack\n    channel: "#ops"\n    username: bot\n    icon_emoji: ":fire:"\n    icon_url: ""\n    title: "Disk <full>"\n` +
    '    title_link: http://grafana/d\n    pretext: P\n    text: "line 1\\nline 2"\n    fallback: F\n    callback_id: C\n    footer: Foot\n    color: danger\n' +
    '    short_fields: true\n    fields: [{title: a, value: b}, {title: c, value: d, short: false}]\n' +
    '    actions: [{type: button, text: Runbook, url: "http://run/book", style: primary}, {type: button, text: Ack, name: ack, value: "1", confirm: {text: "sure?", ok_text: "yes"}}]\n' +
    `  pagerduty_configs:\n  - routing_key: rk-1\n    url: ${http.url}/pagerduty\n    client: Alertmanager\n    client_url: http://am\n    description: Disk is full\n` +
    '    severity: critical\n    class: disk\n    component: storage\n    group: prod\n    details: {firing: F, resolved: R, num_firing: "1", num_resolved: "0"}\n' +
    '    images: [{src: "http://i/x.png", alt: graph, href: "http://i"}]\n    links: [{href: "http://runbook", text: runbook}]\n';

  const am = await startRealAlertmanager(t, {
    config: `global:\n${global}route:\n  receiver: r\n  group_by: [alertname]\n  group_wait: 0s\nreceivers:\n- name: r\n${integrations}`,
  });
  const posted = await am.request('/api/v2/alerts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([{ labels: { alertname: 'Disk', instance: 'host-1' }, annotations: { summary: 'disk of host-1' } }]),
  });
  t.equal(posted.status, 200);
  const theirMail = await smtp.nth(1);
  const theirs = new Map([await http.nth(1), await http.nth(2)].map((request) => [request.path, request]));

  const sender = (httpConfig: HttpConfig) => createHttpSender(httpConfig, process.cwd());
  const ours = otherIntegrations(receiverFrom(global, integrations), { templates: literalTemplates, sender });
  for (const integration of ours) t.same(await integration.notify(requestFor(['host-1'])), { ok: true }, integration.kind);
  const ourMail = await smtp.nth(2);
  const oursByPath = new Map([await http.nth(3), await http.nth(4)].map((request) => [request.path, request]));

  for (const header of ['subject', 'to', 'from', 'x-team', 'mime-version']) {
    t.same(ourMail.parsed.headers.get(header), theirMail.parsed.headers.get(header), `email header ${header}`);
  }
  t.equal(ourMail.parsed.text, theirMail.parsed.text, 'email text part');
  t.equal(ourMail.parsed.html, theirMail.parsed.html, 'email HTML part');
  t.same([ourMail.from, ourMail.to], [theirMail.from, theirMail.to], 'envelope');
  const bodyOf = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n')).replace(/[0-9a-f]{60}/g, 'BOUNDARY');
  t.equal(bodyOf(ourMail.raw), bodyOf(theirMail.raw), 'the MIME body byte for byte, boundaries aside');
  const headerNames = (raw: string) => [...raw.slice(0, raw.indexOf('\r\n\r\n')).matchAll(/^([\w-]+):/gm)].map((m) => m[1]).sort();
  t.same(headerNames(ourMail.raw), headerNames(theirMail.raw), 'the same headers');

  for (const path of ['/slack', '/pagerduty']) {
    t.same(oursByPath.get(path)?.json, theirs.get(path)?.json, `${path} body`);
    t.equal(oursByPath.get(path)?.headers['content-type'], theirs.get(path)?.headers['content-type'], `${path} content type`);
  }
});

t.test("with Alertmanager's default templates, the same email, Slack message and PagerDuty event", async (t) => {
  const compiled = compileTemplates([]);
  if (!compiled.ok) return t.fail(compiled.error);
  const smtp = await startSmtpSink(t);
  const http = await startHttpSink(t);
  const global = `  smtp_smarthost: ${smtp.host}:${smtp.port}\n  smtp_from: am@example.org\n  smtp_require_tls: false\n`;
  const integrations =
    '  email_configs:\n  - to: ops@example.org\n    send_resolved: true\n' +
    `  slack_configs:\n  - api_url: ${http.url}/slack\n    channel: "#ops"\n` +
    `  pagerduty_configs:\n  - routing_key: rk-1\n    url: ${http.url}/pagerduty\n`;
  const am = await startRealAlertmanager(t, {
    config: `global:\n${global}route:\n  receiver: r\n  group_by: [alertname]\n  group_wait: 0s\nreceivers:\n- name: r\n${integrations}`,
    externalUrl: () => 'http://alerts.example:9093',
  });
  await am.request('/api/v2/alerts', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([{ labels: { alertname: 'Disk', instance: 'host-1' }, annotations: { summary: 'disk of host-1' }, generatorURL: 'http://prometheus/graph?host-1' }]),
  });
  const theirMail = await smtp.nth(1);
  const theirs = new Map([await http.nth(1), await http.nth(2)].map((request) => [request.path, request]));

  const sender = (httpConfig: HttpConfig) => createHttpSender(httpConfig, process.cwd());
  for (const integration of otherIntegrations(receiverFrom(global, integrations), { templates: compiled.value, sender })) {
    t.same(await integration.notify(requestFor(['host-1'])), { ok: true }, integration.kind);
  }
  const ourMail = await smtp.nth(2);
  const ours = new Map([await http.nth(3), await http.nth(4)].map((request) => [request.path, request]));
  for (const header of ['subject', 'to', 'from']) t.same(ourMail.parsed.headers.get(header), theirMail.parsed.headers.get(header), `email header ${header}`);
  t.match(ourMail.parsed.html, /disk of host-1/, 'the default HTML shows the alert');
  t.equal(ourMail.parsed.html, theirMail.parsed.html, 'email.default.html');
  t.match(ours.get('/slack')?.json, { attachments: [{ title: /Disk/ }] }, 'the default Slack title names the group');
  for (const path of ['/slack', '/pagerduty']) t.same(ours.get(path)?.json, theirs.get(path)?.json, `${path} body`);
});
