import t from 'tap';
import { loadAlertmanagerConfig } from '../../../src/alerts/config/index.js';

function original(text: string): string {
  const r = loadAlertmanagerConfig(text);
  if (!r.ok) throw new Error(r.error);
  return r.value.original;
}

/** The globals Alertmanager 0.25 prints for a config that sets none but `resolve_timeout`. */
const GLOBAL_1M = `global:
  resolve_timeout: 1m
  http_config:
    follow_redirects: true
    enable_http2: true
  smtp_hello: localhost
  smtp_require_tls: true
  pagerduty_url: https://events.pagerduty.com/v2/enqueue
  opsgenie_api_url: https://api.opsgenie.com/
  wechat_api_url: https://qyapi.weixin.qq.com/cgi-bin/
  victorops_api_url: https://alert.victorops.com/integrations/generic/20131114/alert/
  telegram_api_url: https://api.telegram.org
  webex_api_url: https://webexapis.com/v1/messages
`;

t.test('config.original as Alertmanager 0.25 printed it, byte for byte', async (t) => {
  // The configuration behind a `GET /api/v2/status` of a real 0.25. Its printed receivers
  // listed only `default` and `team-b`, yet a route uses `team-a`, which 0.25 refuses unless
  // defined; so `team-a` is defined here (no integrations) and expected in the output.
  const input = `global:
  resolve_timeout: 1m
route:
  receiver: default
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
  routes:
    - receiver: team-a
      matchers: [team=a]
      group_by: [alertname, instance]
      continue: true
    - receiver: team-b
      match_re:
        team: b|c
      group_by: ['...']
inhibit_rules:
  - source_matchers: ['severity="critical"']
    target_matchers: ['severity="warning"']
    equal: [alertname]
receivers:
  - name: default
    webhook_configs:
      - url: http://127.0.0.1:19099/default
  - name: team-a
  - name: team-b
`;
  const expected = `${GLOBAL_1M}route:
  receiver: default
  group_by:
  - alertname
  continue: false
  routes:
  - receiver: team-a
    group_by:
    - alertname
    - instance
    matchers:
    - team="a"
    continue: true
  - receiver: team-b
    group_by:
    - '...'
    match_re:
      team: b|c
    continue: false
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
inhibit_rules:
- source_matchers:
  - severity="critical"
  target_matchers:
  - severity="warning"
  equal:
  - alertname
receivers:
- name: default
  webhook_configs:
  - send_resolved: true
    http_config:
      follow_redirects: true
      enable_http2: true
    url: http://127.0.0.1:19099/default
    max_alerts: 0
- name: team-a
- name: team-b
templates: []
`;
  t.equal(original(input), expected);
});

t.test('secrets are masked, bearer tokens become authorization, newer keys are left out', async (t) => {
  const out = original(`global:
  smtp_smarthost: 'mail:25'
  smtp_from: am@example.org
  smtp_auth_password: hunter2
  slack_api_url: https://hooks.slack.com/services/T/B/X
  smtp_tls_config: {insecure_skip_verify: true}
route:
  receiver: web
  routes:
  - receiver: chat
    labels: {team: chat}
receivers:
- name: web
  webhook_configs:
  - url: http://h/x
    http_config:
      bearer_token: abc
      tls_config: {ca_file: /ca.pem}
    max_alerts: 3
    timeout: 10s
- name: chat
  slack_configs:
  - channel: '#alerts'
    api_url: https://hooks.slack.com/services/T/B/Y
    text: "line one\\nline two"
  msteams_configs:
  - webhook_url: http://teams/x
inhibit_rules:
- name: named
  source_match: {severity: critical}
  target_match_re: {severity: "warn.*"}
`);
  t.match(out, /\n {2}smtp_auth_password: <secret>\n/);
  t.match(out, /\n {2}slack_api_url: <secret>\n/);
  t.notMatch(out, /hunter2|services\/T/);
  t.notMatch(out, /smtp_tls_config|msteams|labels|\n +timeout:|name: named/, 'keys Alertmanager 0.25 did not know');
  t.match(
    out,
    `    http_config:
      authorization:
        type: Bearer
        credentials: <secret>
      tls_config:
        ca_file: /ca.pem
        insecure_skip_verify: false
      follow_redirects: true
      enable_http2: true
    url: http://h/x
    max_alerts: 3
`,
  );
  t.match(
    out,
    `  slack_configs:
  - channel: '#alerts'
    api_url: <secret>
    text: |-
      line one
      line two
`,
  );
  t.match(
    out,
    `inhibit_rules:
- source_match:
    severity: critical
  target_match_re:
    severity: warn.*
`,
  );
});

t.test('time intervals, templates and quoting', async (t) => {
  const out = original(`route:
  receiver: "true"
  routes:
  - receiver: "true"
    match: {b: "1", a10: y, a9: z}
    mute_time_intervals: [off]
receivers:
- name: "true"
mute_time_intervals:
- name: off
  time_intervals:
  - {}
time_intervals:
- name: biz
  time_intervals:
  - times: [{start_time: "09:00", end_time: "24:00"}]
    weekdays: ['Monday:friday', saturday]
    days_of_month: ['1:5', '-1']
    months: ['may:august', 'december']
    years: ['2030']
    location: Europe/Berlin
templates: ['/etc/am/*.tmpl', 'x.tmpl']
`);
  t.match(out, /\nroute:\n {2}receiver: "true"\n/, 'a string YAML would read as a boolean is double-quoted');
  t.match(out, /\n {4}match:\n {6}a9: z\n {6}a10: "y"\n {6}b: "1"\n/, 'map keys in yaml.v2 order');
  t.match(
    out,
    `templates:
- /etc/am/*.tmpl
- x.tmpl
mute_time_intervals:
- name: "off"
  time_intervals:
  - {}
time_intervals:
- name: biz
  time_intervals:
  - times:
    - start_time: "09:00"
      end_time: "24:00"
    weekdays: ['monday:friday', saturday]
    days_of_month: ["1:5", "-1"]
    months: ["5:8", "12"]
    years: ["2030"]
    location: Europe/Berlin
`,
  );
});

t.test('the printed configuration loads again to the same print', async (t) => {
  const first = original(`global:
  resolve_timeout: 90s
route:
  receiver: a
  group_by: ['...']
  routes:
  - receiver: a
    matchers: ['x=~"a|b"', 'y!="q\\"uote"']
    active_time_intervals: [w]
receivers:
- name: a
  webhook_configs:
  - url: http://x/y
    send_resolved: false
time_intervals:
- name: w
  time_intervals:
  - weekdays: [monday]
`);
  t.equal(original(first), first);
});
