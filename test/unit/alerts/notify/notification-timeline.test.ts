/**
 * The notification timeline of Alertmanager 0.25, on a clock the test moves: group_wait before
 * the first notification, group_interval between the next ones, a resolved alert in the next
 * one, a resolve_timeout ending the last firing alert, and nothing in between. The payloads are
 * compared with what Alertmanager 0.25 sent in the same scenario
 * (test/fixtures/alertmanager/webhook-payloads-0.25.jsonl), but for time precision: Alertmanager
 * keeps nanoseconds, this service milliseconds.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ALERTMANAGER_FIXTURES_DIR } from '../../../support/alertmanager-schema.js';
import { startHttpSink } from '../../../support/http-sink.js';
import { ManualClock } from '../../../support/manual-clock.js';
import { startNotifierRig, RIG_EXTERNAL_URL } from '../../../support/notifier-rig.js';

interface Capture {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown> & { alerts: Array<Record<string, unknown>> };
}

const captures = readFileSync(new URL('webhook-payloads-0.25.jsonl', ALERTMANAGER_FIXTURES_DIR), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Capture);

/** Alertmanager's capture as this service sends it: times to the millisecond, our external URL. */
function asSentHere(capture: Capture, times: Record<string, string>): unknown {
  return {
    ...capture.body,
    externalURL: RIG_EXTERNAL_URL,
    alerts: capture.body.alerts.map((alert) => ({ ...alert, startsAt: times[alert.startsAt as string] ?? alert.startsAt, endsAt: times[alert.endsAt as string] ?? alert.endsAt })),
  };
}

const config = (sink: string) => `
global:
  resolve_timeout: 1m
route:
  receiver: default
  group_wait: 1s
  group_interval: 2s
  routes:
    - receiver: team-a
      matchers: ['team="a"']
      group_by: [alertname, instance]
receivers:
  - name: default
  - name: team-a
    webhook_configs:
      - url: ${sink}/team-a
`;

t.test("Alertmanager's timeline: first after group_wait, a resolve at the next interval, the timeout's resolve later, nothing between", async (t) => {
  const clock = new ManualClock(Date.parse('2026-11-21T22:39:24.161Z'));
  const sink = await startHttpSink(t, () => clock.now());
  const rig = await startNotifierRig(t, { config: config(sink.url), clock });
  const t0 = clock.now();
  await rig.post([
    { labels: { alertname: 'R1', instance: 'i9', team: 'a' }, annotations: { d: 'x' } },
    { labels: { alertname: 'R1', instance: 'i9', team: 'a', x: 'y' } },
  ]);
  await rig.clock.advance(999);
  t.equal(sink.requests.length, 0, 'nothing before group_wait has passed');
  await rig.clock.advance(1);
  const first = await sink.nth(1);
  t.equal(first.at - t0, 1000, 'the first notification goes out group_wait after the first alert');
  t.equal(first.path, '/team-a');
  t.equal(first.headers['content-type'], 'application/json');
  t.match(first.headers['user-agent'], /^Alertmanager\/0\.25\.0/);
  t.ok(first.body.endsWith('}\n'), 'the body ends with a newline, as Go writes it');
  const startsAt = { '2026-11-21T22:39:24.161307723Z': '2026-11-21T22:39:24.161Z' };
  t.same(first.json, asSentHere(captures[1] as Capture, startsAt), "the payload is Alertmanager's, field for field");
  t.equal(Object.keys(first.json as object).join(), Object.keys((captures[1] as Capture).body).join(), 'in the same field order');

  // R1#1 resolved at 22:39:26.670, 2.509 s in.
  await rig.clock.advance(1509);
  await rig.post([{ labels: { alertname: 'R1', instance: 'i9', team: 'a' }, startsAt: t0, endsAt: rig.clock.now() }]);
  await rig.clock.advance(490);
  t.equal(sink.requests.length, 1, 'the resolve waits for the next group_interval tick');
  await rig.clock.advance(10);
  const second = await sink.nth(2);
  t.equal(second.at - t0, 3000, 'it goes out group_interval after the first notification');
  t.same(second.json, asSentHere(captures[2] as Capture, { ...startsAt, '2026-11-21T22:39:26.67Z': '2026-11-21T22:39:26.67Z' }), 'one resolved, one firing; the top-level status stays firing');

  // R1#2 was given endsAt = its start + resolve_timeout (1m): it resolves at 22:40:24.161.
  await rig.clock.advance(57_000);
  t.equal(sink.requests.length, 2, 'no repeat while nothing changes (repeat_interval is 4h)');
  await rig.clock.advance(1000);
  const third = await sink.nth(3);
  t.equal(third.at - t0, 61_000, 'the timed-out alert is notified at the first tick after its end');
  t.same(third.json, asSentHere(captures[10] as Capture, { ...startsAt, '2026-11-21T22:40:24.161307723Z': '2026-11-21T22:40:24.161Z' }), 'status resolved, with the alert that timed out only');
  await rig.clock.advance(20_000);
  t.equal(sink.requests.length, 3, 'and nothing after');
});
