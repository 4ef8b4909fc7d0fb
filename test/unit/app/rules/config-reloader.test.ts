/**
 * Reloading the rules on every change: counted as upstream's runner counts them, a failure never
 * replacing the rules in service, and changes that arrive during a load folded into one more.
 */
import t from 'tap';
import { ConfigReloader } from '../../../../src/app/rules/config-reloader.js';
import type { LoadedRules } from '../../../../src/app/rules/rules-loader-messages.js';
import { failed, ok, type Result } from '../../../../src/errors/index.js';
import { HealthChecker, StatsStore } from '../../../../src/observability/index.js';
import { deferred } from '../../../support/deferred.js';
import { recordingLogger, type LogRecord } from '../../../support/recording-logger.js';

const SUCCESS = 'ratelimit.service.config_load_success';
const ERROR = 'ratelimit.service.config_load_error';

function rules(generation: number, domains = 1): LoadedRules {
  return { generation, domains, rlconfig: `rules of generation ${generation}\n` };
}

/** A reloader whose loads return what the test scripts, in order; `inService` resolves at once unless replaced. */
function reloader(script: Array<Result<LoadedRules> | Promise<Result<LoadedRules>>>, inService = (_generation: number) => Promise.resolve()) {
  const stats = new StatsStore();
  const health = new HealthChecker({ requireConfig: true });
  const logs: LogRecord[] = [];
  const served: number[] = [];
  let loads = 0;
  const subject = new ConfigReloader({
    load: async () => {
      const next = script[loads++];
      if (next === undefined) throw new Error(`load ${loads} was not expected`);
      return next;
    },
    inService: async (generation) => {
      await inService(generation);
      served.push(generation);
    },
    stats,
    health,
    logger: recordingLogger(logs),
  });
  return {
    subject,
    health,
    logs,
    served,
    loads: () => loads,
    counts: () => ({ success: stats.counter(SUCCESS).value, error: stats.counter(ERROR).value }),
  };
}

t.test('a load that succeeds is counted, put in service, and its /rlconfig text shown', async (t) => {
  const r = reloader([ok(rules(1, 2))]);
  t.equal(r.subject.rlconfig, '', 'nothing before the first load');
  t.equal(r.health.isHealthy(), false, 'unhealthy until a configuration loads');
  t.equal(await r.subject.reload(), true);
  t.same(r.counts(), { success: 1, error: 0 });
  t.same(r.served, [1]);
  t.equal(r.subject.rlconfig, 'rules of generation 1\n');
  t.equal(r.health.isHealthy(), true);
  t.same(r.logs, [{ level: 'info', msg: 'Successfully loaded new configuration', fields: { domains: 2 } }]);
});

t.test('the new rules count only once every thread decides by them', async (t) => {
  const everyThread = deferred<void>();
  const r = reloader([ok(rules(1)), ok(rules(2))], (generation) => (generation === 2 ? everyThread.promise : Promise.resolve()));
  await r.subject.reload();
  const second = r.subject.reload();
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(r.subject.rlconfig, 'rules of generation 1\n', 'the old rules are shown while the threads take the new ones');
  t.same(r.counts(), { success: 1, error: 0 });
  everyThread.resolve();
  t.equal(await second, true);
  t.equal(r.subject.rlconfig, 'rules of generation 2\n');
  t.same(r.counts(), { success: 2, error: 0 });
});

t.test('a load that fails is counted and logged; the rules in service stay', async (t) => {
  const r = reloader([ok(rules(1)), failed('CFG_INVALID', "bad.yaml: invalid rate limit unit 'foo'")]);
  await r.subject.reload();
  t.equal(await r.subject.reload(), false);
  t.same(r.counts(), { success: 1, error: 1 });
  t.same(r.served, [1], 'nothing new put in service');
  t.equal(r.subject.rlconfig, 'rules of generation 1\n');
  t.equal(r.health.isHealthy(), true, 'still healthy on the rules it has');
  t.same(r.logs[1], {
    level: 'error',
    msg: "Error loading new configuration: bad.yaml: invalid rate limit unit 'foo'",
    fields: { code: 'CFG_INVALID' },
  });
});

t.test('a first load that fails leaves no rules and the service unhealthy', async (t) => {
  const r = reloader([failed('CFG_UNREADABLE', 'cannot read the configuration directory: ENOENT')]);
  t.equal(await r.subject.reload(), false);
  t.same(r.counts(), { success: 0, error: 1 });
  t.equal(r.subject.rlconfig, '');
  t.equal(r.health.isHealthy(), false);
});

t.test('rules with no domain load, but do not make the service healthy', async (t) => {
  const r = reloader([ok(rules(1, 0))]);
  t.equal(await r.subject.reload(), true);
  t.equal(r.health.isHealthy(), false);
});

t.test('reloads asked for while one runs are folded into one more load after it', async (t) => {
  const first = deferred<Result<LoadedRules>>();
  const r = reloader([first.promise, ok(rules(2))]);
  const running = r.subject.reload();
  const during = [r.subject.reload(), r.subject.reload(), r.subject.reload()];
  t.equal(r.loads(), 1, 'no second load while the first runs');
  first.resolve(ok(rules(1)));
  t.equal(await running, true);
  await Promise.all(during);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(r.loads(), 2, 'one more load for all the changes during the first');
  t.same(r.served, [1, 2]);
  t.same(r.counts(), { success: 2, error: 0 });
  t.equal(r.subject.rlconfig, 'rules of generation 2\n');
});

t.test('a reload after the last one ended is a load of its own', async (t) => {
  const r = reloader([ok(rules(1)), ok(rules(2))]);
  await r.subject.reload();
  await r.subject.reload();
  t.equal(r.loads(), 2);
  t.same(r.served, [1, 2]);
});
