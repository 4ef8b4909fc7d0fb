import t from 'tap';
import { loadAlertmanagerConfig } from '../../../src/alerts/config/index.js';
import { receiverFrom as receiverOf } from '../../support/receiver-fixtures.js';

function errorOf(integrations: string): string {
  const r = loadAlertmanagerConfig(`route:\n  receiver: r\nreceivers:\n- name: r\n${integrations}`);
  return r.ok ? 'loaded' : r.error;
}

const SMTP_GLOBALS = '  smtp_smarthost: mail.example:587\n  smtp_from: am@example\n  smtp_auth_username: user\n  smtp_auth_password: pw\n  smtp_hello: me.example\n  smtp_require_tls: false\n';

t.test('email: the global SMTP settings fill what an entry leaves unset, and the default headers are added', async (t) => {
  const [inherits, own] = receiverOf(
    SMTP_GLOBALS,
    '  email_configs:\n  - to: ops@example\n  - to: "{{ .GroupLabels.team }}@example"\n    from: other@example\n    smarthost: "[::1]:2525"\n    require_tls: true\n    auth_password_file: /run/pw\n    headers: {x-team: "{{ .CommonLabels.team }}", subject: Custom}\n    text: plain\n',
  ).emailConfigs;
  t.match(inherits, {
    sendResolved: false,
    from: 'am@example',
    hello: 'me.example',
    smarthost: { host: 'mail.example', port: '587' },
    authUsername: 'user',
    authPassword: 'pw',
    requireTls: false,
    html: '{{ template "email.default.html" . }}',
    text: '',
  });
  t.same(inherits?.headers, [
    ['From', 'am@example'],
    ['Subject', '{{ template "email.default.subject" . }}'],
    ['To', 'ops@example'],
  ]);
  t.match(own, { from: 'other@example', smarthost: { host: '::1', port: '2525' }, requireTls: true, authPassword: '', authPasswordFile: '/run/pw', text: 'plain' });
  t.same(own?.headers, [
    ['From', 'other@example'],
    ['Subject', 'Custom'],
    ['To', '{{ .GroupLabels.team }}@example'],
    ['X-Team', '{{ .CommonLabels.team }}'],
  ]);
});

t.test('email: the checks of Alertmanager 0.25, with its messages', async (t) => {
  const entry = (extra: string): string => `  email_configs:\n  - smarthost: a:25\n    from: x@y\n${extra}`;
  t.equal(errorOf(entry('')), 'missing to address in email config');
  t.equal(errorOf(entry('    to: a@b\n    headers: {subject: a, Subject: b}\n')), 'duplicate header "Subject" in email config');
  t.equal(errorOf('  email_configs:\n  - to: a@b\n    smarthost: a\n    from: x@y\n'), 'address a: missing port in address');
  t.equal(errorOf(entry('    to: a@b\n    nope: 1\n')), 'yaml: unmarshal errors:\n  line 9: field nope not found in type config.plain');
  t.equal(errorOf(entry('    to: a@b\n    require_tls: 3\n')), 'yaml: unmarshal errors:\n  line 9: cannot unmarshal !!int `3` into bool');
});

t.test('slack: defaults, the global URL and http_config, fields and actions', async (t) => {
  const [slack] = receiverOf(
    '  slack_api_url: https://hooks.slack.example/services/x\n  http_config: {bearer_token: tok}\n',
    '  slack_configs:\n  - channel: "#ops"\n    short_fields: true\n    fields: [{title: a, value: b}, {title: c, value: d, short: false}]\n    actions:\n    - {type: button, text: Runbook, url: "http://run/book", name: dropped, confirm: {text: sure?}}\n    - {type: button, text: Ack, name: ack, value: "1", confirm: {text: sure?}}\n',
  ).slackConfigs;
  t.match(slack, {
    sendResolved: false,
    apiUrl: 'https://hooks.slack.example/services/x',
    apiUrlFile: '',
    channel: '#ops',
    color: '{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}',
    title: '{{ template "slack.default.title" . }}',
    text: '{{ template "slack.default.text" . }}',
    callbackId: '{{ template "slack.default.callbackid" . }}',
    shortFields: true,
    httpConfig: { authorization: { type: 'Bearer', credentials: 'tok' } },
  });
  t.same(slack?.fields, [
    { title: 'a', value: 'b', short: undefined },
    { title: 'c', value: 'd', short: false },
  ]);
  t.same(slack?.actions, [
    { type: 'button', text: 'Runbook', url: 'http://run/book', style: '', name: '', value: '', confirm: undefined },
    { type: 'button', text: 'Ack', url: '', style: '', name: 'ack', value: '1', confirm: { text: 'sure?', title: '', okText: '', dismissText: '' } },
  ]);
  const [fromFile] = receiverOf('  slack_api_url_file: /run/slack\n', '  slack_configs:\n  - channel: x\n    timeout: 1500ms\n').slackConfigs;
  t.match(fromFile, { apiUrl: '', apiUrlFile: '/run/slack', timeoutMs: 1500 });
});

t.test('slack: the checks of Alertmanager 0.25, with its messages', async (t) => {
  const slack = (extra: string): string => `  slack_configs:\n  - api_url: http://x/\n${extra}`;
  t.equal(errorOf(slack('    fields: [{title: a}]\n')), 'missing value in Slack field configuration');
  t.equal(errorOf(slack('    fields: [{value: a}]\n')), 'missing title in Slack field configuration');
  t.equal(errorOf(slack('    actions: [{type: button, text: a}]\n')), 'missing name or url in Slack action configuration');
  t.equal(errorOf(slack('    actions: [{text: a, url: "http://x"}]\n')), 'missing type in Slack action configuration');
  t.equal(errorOf(slack('    actions: [{type: button, name: a}]\n')), 'missing text in Slack action configuration');
  t.equal(errorOf(slack('    actions: [{type: button, text: a, name: b, confirm: {title: t}}]\n')), 'missing text in Slack confirmation configuration');
  t.equal(errorOf(slack('    api_url_file: /x\n')), 'at most one of api_url & api_url_file must be configured');
  t.equal(errorOf('  slack_configs:\n  - api_url: ftp://x/\n'), 'unsupported scheme "ftp" for URL');
});

t.test('pagerduty: defaults, the global URL, details merged with the defaults, source from client', async (t) => {
  const [v2, v1] = receiverOf(
    '',
    '  pagerduty_configs:\n  - routing_key: rk\n    client: my-client\n    details: {num_firing: custom, extra: "{{ .Status }}"}\n    images: [{src: "http://i/x.png", alt: x}]\n    links: [{href: "http://l", text: l}]\n  - service_key: sk\n    url: https://pd.example/v2\n    source: src\n',
  ).pagerdutyConfigs;
  t.match(v2, {
    sendResolved: true,
    routingKey: 'rk',
    url: 'https://events.pagerduty.com/v2/enqueue',
    client: 'my-client',
    clientUrl: '{{ template "pagerduty.default.clientURL" . }}',
    description: '{{ template "pagerduty.default.description" .}}',
    source: 'my-client',
    severity: '',
    images: [{ src: 'http://i/x.png', alt: 'x', href: '' }],
    links: [{ href: 'http://l', text: 'l' }],
  });
  t.same(v2?.details, [
    ['extra', '{{ .Status }}'],
    ['firing', '{{ template "pagerduty.default.instances" .Alerts.Firing }}'],
    ['num_firing', 'custom'],
    ['num_resolved', '{{ .Alerts.Resolved | len }}'],
    ['resolved', '{{ template "pagerduty.default.instances" .Alerts.Resolved }}'],
  ]);
  t.match(v1, { serviceKey: 'sk', url: 'https://pd.example/v2', source: 'src' });
  t.equal(errorOf('  pagerduty_configs:\n  - client: x\n'), 'missing service or routing key in PagerDuty config');
  t.equal(errorOf('  pagerduty_configs:\n  - routing_key: x\n    routing_key_file: y\n'), 'at most one of routing_key & routing_key_file must be configured');
  t.equal(errorOf('  pagerduty_configs:\n  - service_key: x\n    service_key_file: y\n'), 'at most one of service_key & service_key_file must be configured');
});

t.test('msteams: defaults and the checks', async (t) => {
  const [teams] = receiverOf('', '  msteams_configs:\n  - webhook_url: https://outlook.example/webhook\n').msteamsConfigs;
  t.match(teams, {
    sendResolved: true,
    webhookUrl: 'https://outlook.example/webhook',
    title: '{{ template "msteams.default.title" . }}',
    summary: '{{ template "msteams.default.summary" . }}',
    text: '{{ template "msteams.default.text" . }}',
  });
  t.equal(errorOf('  msteams_configs:\n  - webhook_url: http://x/\n    webhook_url_file: /f\n'), 'at most one of webhook_url & webhook_url_file must be configured');
  t.equal(errorOf('  msteams_configs:\n  - title: x\n'), 'no msteams webhook URL or URLFile provided');
});
