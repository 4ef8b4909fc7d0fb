import t from 'tap';
import { formatDuration, loadAlertmanagerConfig, parseDuration } from '../../../src/alerts/config/index.js';

/** A configuration with receivers `default` and `a` around the given route body. */
function withRoute(route: string, extra = ''): string {
  return `route:\n${route}\nreceivers:\n- name: default\n- name: a\n${extra}`;
}

function errorOf(text: string): string {
  const r = loadAlertmanagerConfig(text);
  return r.ok ? 'loaded' : r.error;
}

t.test('a minimal configuration loads with the defaults', async (t) => {
  const r = loadAlertmanagerConfig('route:\n  receiver: default\nreceivers:\n- name: default\n');
  if (!r.ok) return t.fail(r.error);
  t.equal(r.value.global.resolveTimeoutMs, 300_000);
  t.same([r.value.route.groupWaitMs, r.value.route.groupIntervalMs, r.value.route.repeatIntervalMs], [30_000, 300_000, 14_400_000]);
  t.same(r.value.route.groupBy, []);
  t.equal(r.value.route.key, '{}');
  t.same(r.value.receivers, [{ name: 'default', webhookConfigs: [], emailConfigs: [], slackConfigs: [], pagerdutyConfigs: [], msteamsConfigs: [], unsupportedConfigs: [] }]);
  t.same(r.value.inhibitRules, []);
  t.equal(r.value.timeIntervals.size, 0);
});

t.test('an empty file, and the top-level errors', async (t) => {
  t.equal(errorOf(''), 'no route provided in config');
  t.equal(errorOf('# only a comment\n'), 'no route provided in config');
  t.equal(errorOf('receivers:\n- name: a\n'), 'no routes provided');
  t.equal(errorOf('foo'), 'yaml: unmarshal errors:\n  line 1: cannot unmarshal !!str `foo` into config.plain');
});

t.test('unknown keys are errors, with every one listed', async (t) => {
  t.equal(
    errorOf('route:\n  receiver: default\nfoo: 1\nreceivers:\n- name: default\n'),
    'yaml: unmarshal errors:\n  line 3: field foo not found in type config.plain',
  );
  t.equal(
    errorOf('global:\n  nope: 1\n' + withRoute('  receiver: default\n  bar: 1')),
    'yaml: unmarshal errors:\n  line 2: field nope not found in type config.plain\n  line 5: field bar not found in type config.plain',
  );
  t.equal(
    errorOf(withRoute('  receiver: default', 'time_intervals:\n- name: x\n  time_intervals:\n  - hours: [1]\n')),
    'yaml: unmarshal errors:\n  line 9: field hours not found in type timeinterval.TimeInterval',
  );
  t.equal(errorOf('route:\n  receiver: a\nroute:\n  receiver: b\nreceivers:\n- name: a\n'), 'yaml: unmarshal errors:\n  line 3: field route already set in type config.plain');
});

t.test('values of the wrong type', async (t) => {
  t.equal(errorOf(withRoute('  receiver: default\n  continue: "yes"')), 'yaml: unmarshal errors:\n  line 3: cannot unmarshal !!str `yes` into bool');
  t.equal(errorOf('route:\n  receiver: a\nreceivers: a\n'), 'yaml: unmarshal errors:\n  line 3: cannot unmarshal !!str `a` into []config.Receiver');
  t.equal(errorOf(withRoute('  receiver: [a]')), 'yaml: unmarshal errors:\n  line 2: cannot unmarshal !!seq into string');
  t.equal(
    errorOf('route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: http://x/\n    max_alerts: -1\n'),
    'yaml: unmarshal errors:\n  line 7: cannot unmarshal !!int `-1` into uint64',
  );
  t.ok(loadAlertmanagerConfig(withRoute('  receiver: default\n  continue: no')).ok, 'YAML 1.1 booleans, as yaml.v2 reads them');
});

t.test('routing tree checks', async (t) => {
  const cases: Array<[string, string]> = [
    [withRoute('  group_by: [a]'), 'root route must specify a default receiver'],
    [withRoute('  receiver: default\n  matchers: [a=b]'), 'root route must not have any matchers'],
    [withRoute('  receiver: default\n  match: {a: b}'), 'root route must not have any matchers'],
    [withRoute('  receiver: default\n  match_re: {a: b}'), 'root route must not have any matchers'],
    [withRoute('  receiver: default\n  continue: true'), 'cannot have continue in root route'],
    [withRoute('  receiver: default\n  mute_time_intervals: [x]', 'time_intervals:\n- name: x\n'), 'root route must not have any mute time intervals'],
    [withRoute('  receiver: default\n  active_time_intervals: [x]', 'time_intervals:\n- name: x\n'), 'root route must not have any active time intervals'],
    [withRoute('  receiver: default\n  routes:\n  - receiver: x\n  - receiver: y'), 'undefined receiver "x" used in route'],
    [withRoute('  receiver: default\n  routes:\n  - receiver: a\n    routes:\n    - receiver: deep\n  - receiver: y'), 'undefined receiver "deep" used in route'],
    [withRoute('  receiver: default\n  routes:\n  - receiver: a\n    mute_time_intervals: [nope]'), 'undefined time interval "nope" used in route'],
    [withRoute('  receiver: default\n  routes:\n  - receiver: a\n    active_time_intervals: [gone]'), 'undefined time interval "gone" used in route'],
    [withRoute('  receiver: default\n  group_by: [a, "..."]'), 'cannot have wildcard group_by (`...`) and other labels at the same time'],
    [withRoute('  receiver: default\n  group_by: [a, a]'), 'duplicated label "a" in group_by'],
    [withRoute('  receiver: default\n  group_by: [""]'), 'invalid label name "" in group_by list'],
    [withRoute('  receiver: default\n  group_interval: 0'), 'group_interval cannot be zero'],
    [withRoute('  receiver: default\n  repeat_interval: 0s'), 'repeat_interval cannot be zero'],
    [withRoute('  receiver: default\n  group_wait: 5x'), 'not a valid duration string: "5x"'],
    [withRoute('  receiver: default\n  group_wait: ""'), 'empty duration string'],
    [withRoute('  receiver: default\n  routes:\n  - match: {"a-b": c}'), 'invalid label name "a-b"'],
    [withRoute('  receiver: default\n  routes:\n  - match_re: {a: "("}'), 'error parsing regexp: missing closing ): `^(?:()$`'],
    [withRoute('  receiver: default\n  routes:\n  - match_re: {a: }'), 'invalid regexp value for "a"'],
    [withRoute('  receiver: default\n  routes:\n  - matchers: [team]'), 'bad matcher format: team'],
  ];
  for (const [text, error] of cases) t.equal(errorOf(text), error, error);
});

t.test('receiver checks', async (t) => {
  const cases: Array<[string, string]> = [
    ['route:\n  receiver: a\nreceivers:\n- webhook_configs: []\n', 'missing name in receiver'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n- name: a\n', 'notification config name "a" is not unique'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - send_resolved: false\n', 'one of url or url_file must be configured'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: http://x/\n    url_file: /f\n', 'at most one of url & url_file must be configured'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: ftp://x/\n', 'unsupported scheme "ftp" for URL'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: "http:///x"\n', 'missing host for URL'],
    [
      'route:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: http://x/\n    http_config: {bearer_token: a, bearer_token_file: b}\n',
      'at most one of bearer_token & bearer_token_file must be configured',
    ],
    [withRoute('  receiver: default', '- name: e\n  email_configs:\n  - to: a@b\n'), 'no global SMTP smarthost set'],
    ['global:\n  smtp_smarthost: mail:25\n' + withRoute('  receiver: default', '- name: e\n  email_configs:\n  - to: a@b\n'), 'no global SMTP from set'],
    [withRoute('  receiver: default', '- name: e\n  slack_configs:\n  - channel: x\n'), 'no global Slack API URL set either inline or in a file'],
    [withRoute('  receiver: default', '- name: e\n  opsgenie_configs:\n  - {}\n'), 'no global OpsGenie API Key set either inline or in a file'],
    ['route:\n  receiver: a\nreceivers:\n- name: a\n  labels: {name: b}\n', 'receiver label "name" must match receiver name "a", got "b"'],
  ];
  for (const [text, error] of cases) t.equal(errorOf(text), error, error);
  t.ok(loadAlertmanagerConfig('global:\n  slack_api_url: https://hooks/x\n' + withRoute('  receiver: default', '- name: e\n  slack_configs:\n  - channel: x\n')).ok, 'the global Slack URL serves');
});

t.test('global checks', async (t) => {
  t.equal(errorOf('global:\n  pagerduty_url: ftp://x\n' + withRoute('  receiver: default')), 'unsupported scheme "ftp" for URL');
  t.equal(errorOf('global:\n  smtp_smarthost: localhost\n' + withRoute('  receiver: default')), 'address localhost: missing port in address');
  t.equal(
    errorOf('global:\n  slack_api_url: http://x/\n  slack_api_url_file: /f\n' + withRoute('  receiver: default')),
    'at most one of slack_api_url & slack_api_url_file must be configured',
  );
  t.equal(errorOf('global:\n  resolve_timeout: soon\n' + withRoute('  receiver: default')), 'not a valid duration string: "soon"');
  const r = loadAlertmanagerConfig('global:\n  resolve_timeout: 1h30m\n' + withRoute('  receiver: default'));
  t.equal(r.ok && r.value.global.resolveTimeoutMs, 5_400_000);
});

t.test('inhibition rules', async (t) => {
  t.equal(errorOf(withRoute('  receiver: default', 'inhibit_rules:\n- equal: [""]\n')), 'invalid label name "" in equal list');
  t.equal(errorOf(withRoute('  receiver: default', 'inhibit_rules:\n- source_match: {"a.b": c}\n')), 'invalid label name "a.b"');
  t.equal(errorOf(withRoute('  receiver: default', 'inhibit_rules:\n- target_match_re: {a: "[" }\n')), 'error parsing regexp: missing closing ]: `[)$`');
  const empty = loadAlertmanagerConfig(withRoute('  receiver: default', 'inhibit_rules:\n-\n'));
  t.same(empty.ok && empty.value.inhibitRules, [{ name: '', sourceMatchers: [], targetMatchers: [], equal: [] }], 'an empty rule is allowed');
  const r = loadAlertmanagerConfig(
    withRoute(
      '  receiver: default',
      'inhibit_rules:\n- name: crit\n  source_match: {severity: critical}\n  source_match_re: {team: "a|b"}\n  target_matchers: [\'severity="warning"\', "x=~y"]\n  equal: [alertname, "dotted.name"]\n',
    ),
  );
  if (!r.ok) return t.fail(r.error);
  const [rule] = r.value.inhibitRules;
  t.equal(rule?.name, 'crit');
  t.same(rule?.sourceMatchers.map(String), ['severity="critical"', 'team=~"^(?:a|b)$"']);
  t.same(rule?.targetMatchers.map(String), ['severity="warning"', 'x=~"y"']);
  t.same(rule?.equal, ['alertname', 'dotted.name']);
  t.equal(rule?.sourceMatchers[1]?.matches({ team: 'b' }), true);
  t.equal(rule?.sourceMatchers[1]?.matches({ team: 'ab' }), false);
});

t.test('webhooks', async (t) => {
  const r = loadAlertmanagerConfig(
    'global:\n  http_config:\n    bearer_token: g\nroute:\n  receiver: a\nreceivers:\n- name: a\n  webhook_configs:\n  - url: http://h:1/x\n  - url_file: /run/url\n    send_resolved: false\n    max_alerts: 5\n    timeout: 1.5s\n    http_config:\n      basic_auth: {username: u, password: p}\n',
  );
  if (!r.ok) return t.fail(r.error);
  const [first, second] = r.value.receivers[0]?.webhookConfigs ?? [];
  t.match(first, { url: 'http://h:1/x', urlFile: '', sendResolved: true, maxAlerts: 0, timeoutMs: 0 });
  t.match(second, { url: '', urlFile: '/run/url', sendResolved: false, maxAlerts: 5, timeoutMs: 1500 });
  t.same(first?.httpConfig.authorization, { type: 'Bearer', credentials: 'g', credentialsFile: '' }, 'without its own http_config, a webhook takes the global one');
  t.match(second?.httpConfig, { basicAuth: { username: 'u', password: 'p' }, authorization: undefined }, 'its own replaces it');
});

t.test('never throws, whatever the input', async (t) => {
  const inputs = [
    '\t\n:',
    '[',
    '{a: [}',
    '- - -',
    '!!binary AAAA',
    'route: *x',
    '\u0000\u0001',
    'a: &a [*a]',
    'x'.repeat(5_000_000),
    'route:\n' + '  '.repeat(2000) + 'x',
    'a: ' + '['.repeat(5000),
    'route:\n  receiver: a\n  routes:\n' + '  - routes:\n'.repeat(300),
  ];
  for (const input of inputs) {
    const r = loadAlertmanagerConfig(input);
    t.equal(r.ok, false, JSON.stringify(input.slice(0, 30)));
  }
  const bomb = ['a: &a [x,x,x,x,x,x,x,x,x,x]'];
  for (let i = 1; i < 9; i++) bomb.push(`${'abcdefghij'[i] ?? 'z'}: &${'abcdefghij'[i] ?? 'z'} [${Array(10).fill('*' + ('abcdefghij'[i - 1] ?? 'a')).join(',')}]`);
  t.equal(errorOf(bomb.join('\n')), 'yaml: document contains excessive aliasing');
});

t.test('durations as Alertmanager writes them', async (t) => {
  const ok = (text: string): number | string => {
    const r = parseDuration(text);
    return r.ok ? r.ms : r.error;
  };
  t.equal(ok('1h30m'), 5_400_000);
  t.equal(ok('10s'), 10_000);
  t.equal(ok('500ms'), 500);
  t.equal(ok('1y'), 365 * 86_400_000);
  t.equal(ok('2w'), 14 * 86_400_000);
  t.equal(ok('0'), 0);
  t.equal(ok('1d12h'), 36 * 3_600_000);
  t.equal(ok(''), 'empty duration string');
  t.equal(ok('1.5h'), 'not a valid duration string: "1.5h"');
  t.equal(ok('30m1h'), 'not a valid duration string: "30m1h"');
  t.equal(ok('300y'), 'duration out of range');
  t.equal(formatDuration(0), '0s');
  t.equal(formatDuration(300_000), '5m');
  t.equal(formatDuration(14_400_000), '4h');
  t.equal(formatDuration(5_400_000), '1h30m');
  t.equal(formatDuration(90 * 86_400_000), '90d', 'weeks only when exact');
  t.equal(formatDuration(14 * 86_400_000), '2w');
  t.equal(formatDuration(365 * 86_400_000), '1y');
  t.equal(formatDuration(1500), '1s500ms');
});
