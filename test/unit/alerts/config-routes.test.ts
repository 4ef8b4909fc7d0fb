import t from 'tap';
import { loadAlertmanagerConfig, type Route } from '../../../src/alerts/config/index.js';

function load(text: string): Route {
  const r = loadAlertmanagerConfig(text);
  if (!r.ok) throw new Error(r.error);
  return r.value.route;
}

const TREE = `
route:
  receiver: default
  group_by: [alertname]
  group_wait: 10s
  repeat_interval: 2h
  labels: {tier: root}
  routes:
  - receiver: a
    matchers: ['team="a"', 'severity=~"warn|crit"']
    group_interval: 1m
    mute_time_intervals: [nights]
    labels: {owner: a}
    routes:
    - match: {env: prod}
      group_by: ['...']
      active_time_intervals: [days]
    - match_re: {env: "dev|test"}
      group_by: [instance]
  - receiver: b
    match: {team: b, zone: eu}
    continue: true
  - matchers: ['{team="c",severity!="info"}', 'zone=eu']
receivers:
- name: default
- name: a
- name: b
time_intervals:
- name: nights
- name: days
`;

t.test('options are inherited, time intervals are not', async (t) => {
  const root = load(TREE);
  const [a, b, c] = root.routes;
  const [prod, dev] = a?.routes ?? [];
  t.same([root.receiver, root.groupWaitMs, root.groupIntervalMs, root.repeatIntervalMs], ['default', 10_000, 300_000, 7_200_000]);
  t.same([a?.receiver, a?.groupBy, a?.groupWaitMs, a?.groupIntervalMs, a?.repeatIntervalMs], ['a', ['alertname'], 10_000, 60_000, 7_200_000]);
  t.same(a?.muteTimeIntervals, ['nights']);
  t.same([prod?.receiver, prod?.groupByAll, prod?.groupIntervalMs, prod?.muteTimeIntervals, prod?.activeTimeIntervals], ['a', true, 60_000, [], ['days']]);
  t.same([dev?.groupBy, dev?.groupByAll], [['instance'], false]);
  t.same([b?.receiver, b?.continue, b?.groupBy], ['b', true, ['alertname']]);
  t.equal(c?.receiver, 'default');
  t.same(root.labels, { tier: 'root' });
  t.same(prod?.labels, { tier: 'root', owner: 'a' }, 'labels merge from parent to child');
});

t.test('route keys: the parent key, then the sorted matchers', async (t) => {
  const root = load(TREE);
  const [a, b, c] = root.routes;
  const [prod, dev] = a?.routes ?? [];
  t.equal(root.key, '{}');
  t.equal(a?.key, '{}/{severity=~"warn|crit",team="a"}');
  t.equal(prod?.key, '{}/{severity=~"warn|crit",team="a"}/{env="prod"}');
  t.equal(dev?.key, '{}/{severity=~"warn|crit",team="a"}/{env=~"^(?:dev|test)$"}', 'match_re patterns print anchored');
  t.equal(b?.key, '{}/{team="b",zone="eu"}');
  t.equal(c?.key, '{}/{severity!="info",team="c",zone="eu"}', 'an entry may hold several matchers and braces');
});

t.test('matchers match as Alertmanager routes', async (t) => {
  const root = load(TREE);
  const [a, , c] = root.routes;
  const [, dev] = a?.routes ?? [];
  const all = (r: Route | undefined, labels: Record<string, string>): boolean => r !== undefined && r.matchers.every((m) => m.matches(labels));
  t.equal(all(a, { team: 'a', severity: 'crit' }), true);
  t.equal(all(a, { team: 'a', severity: 'critical' }), false, 'anchored');
  t.equal(all(dev, { env: 'test' }), true);
  t.equal(all(dev, { env: 'testing' }), false);
  t.equal(all(c, { team: 'c', zone: 'eu' }), true, 'a missing severity is "" and != "info"');
  t.equal(all(c, { team: 'c', zone: 'eu', severity: 'info' }), false);
});

t.test('group_by ... on the root, and a child naming labels again', async (t) => {
  const root = load('route:\n  receiver: r\n  group_by: ["..."]\n  routes:\n  - group_by: [a]\n  - group_by: []\nreceivers:\n- name: r\n');
  t.equal(root.groupByAll, true);
  t.same([root.routes[0]?.groupByAll, root.routes[0]?.groupBy], [false, ['a']]);
  t.equal(root.routes[1]?.groupByAll, true, 'an empty list inherits');
});

t.test('UTF-8 names and fallback parsing in config matchers', async (t) => {
  const root = load('route:\n  receiver: r\n  group_by: ["service.name"]\n  routes:\n  - matchers: ["fooΣ=bar", \'a="b,c"\']\nreceivers:\n- name: r\n');
  t.same(root.groupBy, ['service.name']);
  t.same(root.routes[0]?.matchers.map(String), ['a="b,c"', 'fooΣ="bar"']);
  const bad = loadAlertmanagerConfig('route:\n  receiver: r\n  routes:\n  - matchers: ["a=b,c"]\nreceivers:\n- name: r\n');
  t.same(bad, { ok: false, error: 'bad matcher format: c' }, 'an unquoted comma separates matchers in both parsers');
});
