/**
 * Alertmanager's notification pipeline stage by stage, through real HTTP and SQLite on a clock
 * the test moves: what silences, inhibition and mute time intervals hold back, retries and
 * give-ups, max_alerts, send_resolved, repeat_interval, routing with `continue` and
 * `group_by: ['...']`, and what a restart remembers.
 */
import t from 'tap';
import { decodePostableSilence } from '../../../../src/alerts/api/postable-silence.js';
import { ServiceError } from '../../../../src/errors/index.js';
import { startHttpSink, type HttpSink } from '../../../support/http-sink.js';
import { ManualClock } from '../../../support/manual-clock.js';
import { startNotifierRig, type NotifierRig } from '../../../support/notifier-rig.js';
import type { Teardown } from '../../../support/teardown.js';

interface Payload {
  status: string;
  alerts: Array<{ status: string; labels: Record<string, string> }>;
  groupKey: string;
  truncatedAlerts: number;
  receiver: string;
}

const payload = (sink: HttpSink, n: number) => sink.requests[n - 1]?.json as Payload;
const names = (p: Payload) => p.alerts.map((a) => a.labels.alertname);

interface RigYaml {
  /** Root route options over the defaults (group_by [alertname], group_wait 1s, group_interval 1m, repeat_interval 1h). */
  root?: Record<string, string>;
  /** YAML lines added to the root route (child routes). */
  route?: string;
  /** YAML lines added to the webhook entry. */
  webhook?: string;
  /** Top-level YAML added at the end. */
  extra?: string;
}

/** A rig whose only receiver `r` sends to a sink. */
async function rigWith(t: Teardown, options: RigYaml = {}): Promise<{ rig: NotifierRig; sink: HttpSink; clock: ManualClock }> {
  const clock = new ManualClock(Date.parse('2026-11-26T10:00:00Z'));
  const sink = await startHttpSink(t, () => clock.now());
  const root = { group_by: '[alertname]', group_wait: '1s', group_interval: '1m', repeat_interval: '1h', ...options.root };
  const config = `
route:
  receiver: r
${Object.entries(root)
  .map(([key, value]) => `  ${key}: ${value}`)
  .join('\n')}
${options.route ?? ''}
receivers:
  - name: r
    webhook_configs:
      - url: ${sink.url}/hook
${options.webhook ?? ''}
${options.extra ?? ''}
`;
  const rig = await startNotifierRig(t, { config, clock });
  return { rig, sink, clock };
}

async function silence(rig: NotifierRig, matchers: Array<{ name: string; value: string }>): Promise<void> {
  const now = rig.clock.now();
  const request = decodePostableSilence(
    { matchers: matchers.map((m) => ({ ...m, isRegex: false })), startsAt: new Date(now).toISOString(), endsAt: new Date(now + 3_600_000).toISOString(), createdBy: 'test', comment: 'quiet' },
    now,
    0,
  );
  if (request instanceof ServiceError) throw new Error(request.message);
  await rig.service.setSilence(request, now);
}

t.test('a silenced alert is not sent, and a group whose alerts are all silenced sends nothing', async (t) => {
  const { rig, sink, clock } = await rigWith(t);
  await silence(rig, [{ name: 'alertname', value: 'Quiet' }]);
  await silence(rig, [{ name: 'instance', value: 'b' }]);
  await rig.post([{ labels: { alertname: 'Quiet', instance: 'a' } }, { labels: { alertname: 'Loud', instance: 'a' } }, { labels: { alertname: 'Loud', instance: 'b' } }]);
  await clock.advance(1000);
  await sink.nth(1);
  // Three group_interval ticks, within resolve_timeout (5m).
  await clock.advance(3 * 60_000);
  t.equal(sink.requests.length, 1, 'one notification: the Quiet group sent nothing');
  t.same(payload(sink, 1).alerts.map((a) => a.labels), [{ alertname: 'Loud', instance: 'a' }], 'without the silenced alert');
  t.same(
    rig.notifier.history({ limit: 10 }).map((a) => a.groupKey),
    ['{}:{alertname="Loud"}'],
    'and the history has no attempt for the silenced group',
  );
});

t.test('an inhibited alert is not sent; its source is', async (t) => {
  const { rig, sink, clock } = await rigWith(t, {
    root: { group_by: '[cluster]' },
    extra: `inhibit_rules:\n  - source_matchers: [severity="critical"]\n    target_matchers: [severity="warning"]\n    equal: [cluster]`,
  });
  await rig.post([
    { labels: { alertname: 'Down', severity: 'critical', cluster: 'c1' } },
    { labels: { alertname: 'Slow', severity: 'warning', cluster: 'c1' } },
    { labels: { alertname: 'Slow', severity: 'warning', cluster: 'c2' } },
  ]);
  await clock.advance(1000);
  await sink.nth(2);
  const byGroup = new Map(sink.requests.map((r) => [(r.json as Payload).groupKey, names(r.json as Payload)]));
  t.same(byGroup.get('{}:{cluster="c1"}'), ['Down'], 'c1: the warning is inhibited by the critical alert of its cluster');
  t.same(byGroup.get('{}:{cluster="c2"}'), ['Slow'], 'c2: no source there, the warning is sent');
});

t.test('a receiver answering 5xx is retried with backoff until it takes the notification; a 4xx is given up', async (t) => {
  const { rig, sink, clock } = await rigWith(t);
  sink.answerWith((n) => (n <= 2 ? 503 : 200));
  await rig.post([{ labels: { alertname: 'A' } }]);
  const before = clock.timersSet;
  await clock.advance(1000);
  // The flush sets two timers (its deadline, the next flush); a failed try sets its wait once its answer is in.
  await clock.whenTimersSet(before + 3);
  // Backoff: 500 ms, then 750 ms (the random spread fixed at its middle).
  await clock.advance(499);
  t.equal(sink.requests.length, 1, 'the first retry waits 500 ms');
  await clock.advance(1);
  await clock.whenTimersSet(before + 4);
  await clock.advance(750);
  await sink.nth(3);
  t.same(sink.requests.map((r) => r.at - sink.requests[0]!.at), [0, 500, 1250], 'three tries, 500 and 750 ms apart');
  const history = rig.notifier.history({ limit: 10 }).reverse();
  t.same(
    history.map((a) => [a.attempt, a.outcome, a.failure?.reason, a.failure?.willRetry]),
    [
      [1, 'failed', 'serverError', true],
      [2, 'failed', 'serverError', true],
      [3, 'sent', undefined, undefined],
    ],
    'the history keeps every try',
  );
  t.equal(history[0]?.failure?.error, 'unexpected status code 503: sink answered 503');
  t.equal(rig.stats.counter('alertmanager_notifications_total.__integration=webhook').value, 3, 'alertmanager_notifications_total counts each try');
  t.equal(rig.stats.counter('alertmanager_notifications_failed_total.__integration=webhook.__reason=serverError').value, 2, 'and _failed_total the failures, by reason');

  sink.answerWith(() => 400);
  await rig.post([{ labels: { alertname: 'B' } }]);
  await clock.advance(1000);
  await sink.nth(4);
  await clock.advance(30_000);
  t.equal(sink.requests.length, 4, 'a 400 is not retried within the flush');
  t.same(rig.notifier.history({ limit: 1, groupKey: '{}:{alertname="B"}' })[0]?.failure, { reason: 'clientError', error: 'unexpected status code 400: sink answered 400', willRetry: false });
  sink.answerWith(() => 200);
  await clock.advance(30_000);
  await sink.nth(5);
  t.same(names(payload(sink, 5)), ['B'], 'the next group_interval tries again: nothing was logged as sent');
});

t.test('retries stop at the flush deadline (group_interval, at least 10 s) and resume at the next flush', async (t) => {
  const { rig, sink, clock } = await rigWith(t, { root: { group_interval: '15s' } });
  sink.answerWith(() => 500);
  await rig.post([{ labels: { alertname: 'A' } }]);
  const before = clock.timersSet;
  await clock.advance(1000);
  const deadline = clock.now() + 15_000;
  // The flush sets two timers (its deadline, the next flush), then each failed try one (its wait),
  // once its answer came over real I/O: wait for that timer, then move the clock to it.
  for (let tries = 1; ; tries++) {
    await clock.whenTimersSet(before + 2 + tries);
    const due = clock.nextDue() as number;
    if (due >= deadline) break;
    await clock.advance(due - clock.now());
  }
  await clock.advance(deadline - clock.now() - 1);
  const inFirstFlush = sink.requests.length;
  t.same(
    sink.requests.map((r) => r.at - sink.requests[0]!.at),
    [0, 500, 1250, 2375, 4062.5, 6593.75, 10390.625],
    'tries within the first flush, until the next wait would pass its deadline',
  );
  t.same(rig.notifier.history({ limit: 1 })[0]?.failure?.reason, 'serverError');
  sink.answerWith(() => 200);
  await clock.advance(1);
  await sink.nth(inFirstFlush + 1);
  t.equal(sink.requests.length, inFirstFlush + 1, 'no try was left over from the first flush');
  t.equal(sink.requests[inFirstFlush]!.at - sink.requests[0]!.at, 15_000, 'the next flush, group_interval after the first, sends');
});

t.test('max_alerts truncates the payload and says how many were left out', async (t) => {
  const { rig, sink, clock } = await rigWith(t, { webhook: '        max_alerts: 2', root: { group_by: '[]' } });
  await rig.post([{ labels: { alertname: 'A', n: '1' } }, { labels: { alertname: 'A', n: '2' } }, { labels: { alertname: 'A', n: '3' } }]);
  await clock.advance(1000);
  const sent = (await sink.nth(1)).json as Payload;
  t.same(
    sent.alerts.map((a) => a.labels.n),
    ['1', '2'],
  );
  t.equal(sent.truncatedAlerts, 1);
});

t.test('send_resolved: false sends no resolved alerts, and nothing once all are resolved', async (t) => {
  const { rig, sink, clock } = await rigWith(t, { webhook: '        send_resolved: false', root: { group_by: '[]' } });
  const t0 = clock.now();
  await rig.post([{ labels: { alertname: 'A' } }, { labels: { alertname: 'B' } }]);
  await clock.advance(1000);
  await sink.nth(1);
  await rig.post([{ labels: { alertname: 'A' }, startsAt: t0, endsAt: clock.now() }]);
  await clock.advance(60_000);
  t.equal(sink.requests.length, 1, 'one resolved, one still firing: nothing new to say');
  await rig.post([{ labels: { alertname: 'B' }, startsAt: t0, endsAt: clock.now() }]);
  await clock.advance(60_000);
  t.equal(sink.requests.length, 1, 'all resolved: logged as done, nothing sent');
  await rig.post([{ labels: { alertname: 'A' } }]);
  await clock.advance(60_000);
  await sink.nth(2);
  t.same(names(payload(sink, 2)), ['A'], 'A firing again is a first notification');
});

t.test('send_resolved (the default) sends resolved alerts; repeat_interval repeats an unchanged group', async (t) => {
  const { rig, sink, clock } = await rigWith(t, { root: { group_by: '[]', repeat_interval: '3m' } });
  const t0 = clock.now();
  await rig.post([{ labels: { alertname: 'A' }, endsAt: t0 + 3_600_000 }]);
  await clock.advance(1000);
  await sink.nth(1);
  await clock.advance(3 * 60_000);
  t.equal(sink.requests.length, 1, 'nothing before repeat_interval has passed');
  await clock.advance(60_000);
  await sink.nth(2);
  t.equal(sink.requests[1]!.at - sink.requests[0]!.at, 4 * 60_000, 'repeated at the first tick past repeat_interval');
  t.same(rig.notifier.history({ limit: 1 })[0]?.reason, 'repeat interval elapsed');
  await rig.post([{ labels: { alertname: 'A' }, startsAt: t0, endsAt: clock.now() }]);
  await clock.advance(60_000);
  await sink.nth(3);
  t.same(payload(sink, 3).status, 'resolved');
  t.same(rig.notifier.history({ limit: 1 })[0]?.reason, 'all alerts resolved');
});

t.test("routes: `continue` sends to every matching route; group_by ['...'] groups by every label", async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-26T10:00:00Z'));
  const sink = await startHttpSink(t, () => clock.now());
  const config = `
route:
  receiver: fallback
  group_wait: 0s
  routes:
    - receiver: first
      matchers: [team="a"]
      group_by: ['...']
      continue: true
    - receiver: second
      matchers: [team="a"]
receivers:
  - name: fallback
    webhook_configs: [{ url: '${sink.url}/fallback' }]
  - name: first
    webhook_configs: [{ url: '${sink.url}/first' }]
  - name: second
    webhook_configs: [{ url: '${sink.url}/second' }]
`;
  const rig = await startNotifierRig(t, { config, clock });
  await rig.post([{ labels: { alertname: 'X', team: 'a' } }, { labels: { alertname: 'Y', team: 'b' } }]);
  await clock.advance(0);
  await sink.nth(3);
  const byPath = Object.fromEntries(sink.requests.map((r) => [r.path, (r.json as Payload).groupKey]));
  t.same(byPath, {
    '/first': '{}/{team="a"}:{alertname="X", team="a"}',
    '/second': '{}/{team="a"}:{}',
    '/fallback': '{}:{}',
  });
});

t.test('mute_time_intervals hold a route back while they are active; active_time_intervals while they are not', async (t) => {
  const { rig, sink, clock } = await rigWith(t, {
    route: `  routes:\n    - receiver: r\n      matchers: [kind="muted"]\n      mute_time_intervals: [always]\n    - receiver: r\n      matchers: [kind="active"]\n      active_time_intervals: [never]`,
    extra: `time_intervals:\n  - name: always\n    time_intervals: [{}]\n  - name: never\n    time_intervals: [{ years: ['1999'] }]`,
  });
  await rig.post([{ labels: { alertname: 'M', kind: 'muted' } }, { labels: { alertname: 'N', kind: 'active' } }, { labels: { alertname: 'O', kind: 'other' } }]);
  await clock.advance(1000);
  await sink.nth(1);
  await clock.advance(3 * 60_000);
  t.same(
    sink.requests.map((r) => names(r.json as Payload)),
    [['O']],
    'only the alert of the route with no time intervals went out',
  );
});

t.test('a restart repeats nothing already sent, and sends what was due', async (t) => {
  const { rig, sink, clock } = await rigWith(t);
  await rig.post([{ labels: { alertname: 'Sent' } }]);
  await clock.advance(1000);
  await sink.nth(1);
  await rig.post([{ labels: { alertname: 'Pending' } }]);
  const again = await rig.restart();
  // The groups are made again at the restart, and flush group_wait later.
  await clock.advance(1000);
  await sink.nth(2);
  // Three group_interval ticks, within resolve_timeout (5m).
  await clock.advance(3 * 60_000);
  t.same(
    sink.requests.map((r) => names(r.json as Payload)),
    [['Sent'], ['Pending']],
    'Sent is not sent again; Pending is sent once',
  );
  t.equal(again.notifier.history({ limit: 10 }).length, 2, 'the history survived the restart');
});

t.test('a resolved alert stays past the resolved retention until its resolved notification is out', async (t) => {
  const { rig, sink, clock } = await rigWith(t, { root: { group_interval: '5m' } });
  const t0 = clock.now();
  await rig.post([{ labels: { alertname: 'A' } }]);
  await clock.advance(1000);
  await sink.nth(1);
  await rig.post([{ labels: { alertname: 'A' }, startsAt: t0, endsAt: clock.now() }]);
  await clock.advance(60_000);
  t.equal(await rig.service.dropResolved(clock.now()), 0, 'not dropped while its group still has to send it (retention is 5 s)');
  await clock.advance(4 * 60_000);
  await sink.nth(2);
  t.equal(payload(sink, 2).status, 'resolved');
  await clock.advance(10_000);
  t.equal(await rig.service.dropResolved(clock.now()), 1, 'dropped once sent');
});
