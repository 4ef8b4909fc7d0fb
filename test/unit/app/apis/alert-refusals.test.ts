/** Alerts refused for ALERTMANAGER_MAX_ALERTS: each counted at once, logged at most once a minute with how many. */
import t from 'tap';
import { AlertRefusals, REFUSAL_LOG_INTERVAL_MS } from '../../../../src/app/apis/alerts-refusals.js';
import { StatsStore, type LogFields, type Logger } from '../../../../src/observability/index.js';

function recordingLogger(lines: Array<{ message: string; fields?: LogFields }>): Logger {
  const record = (message: string, fields?: LogFields) => lines.push({ message, fields });
  return { debug: record, info: record, warn: record, error: record, notice: record };
}

t.test('the first refusal is logged at once; the next ones within the minute in one line when it is over', async (t) => {
  let now = 1_000_000;
  const lines: Array<{ message: string; fields?: LogFields }> = [];
  const stats = new StatsStore();
  const refusals = new AlertRefusals(recordingLogger(lines), stats.counter('refused'), 100, () => now);
  refusals.refused(3);
  t.same(lines, [{ message: 'new alerts refused: the alert store is full', fields: { refused: 3, ALERTMANAGER_MAX_ALERTS: 100 } }]);
  now += 10_000;
  refusals.refused(2);
  now += 20_000;
  refusals.refused(4);
  t.equal(lines.length, 1, 'no line within the minute');
  t.equal(stats.counter('refused').value, 9, 'each counted at once');
  now += REFUSAL_LOG_INTERVAL_MS;
  refusals.refused(1);
  t.equal(lines.length, 2);
  t.same(lines[1]?.fields, { refused: 7, ALERTMANAGER_MAX_ALERTS: 100 }, 'the count since the last line');
  now += 1000;
  refusals.refused(5);
  refusals.close();
  t.same(lines[2]?.fields, { refused: 5, ALERTMANAGER_MAX_ALERTS: 100 }, 'what is left is logged on close');
});

t.test('refusals that stop within the minute are still logged when it is over', async (t) => {
  const lines: Array<{ message: string; fields?: LogFields }> = [];
  let now = 0;
  const refusals = new AlertRefusals(recordingLogger(lines), new StatsStore().counter('refused'), 10, () => now);
  refusals.refused(1);
  // The minute is up 30 ms from now: the pending count is logged by a timer, with no refusal after it.
  now = REFUSAL_LOG_INTERVAL_MS - 30;
  refusals.refused(2);
  t.equal(lines.length, 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.same(lines[1]?.fields, { refused: 2, ALERTMANAGER_MAX_ALERTS: 10 });
});
