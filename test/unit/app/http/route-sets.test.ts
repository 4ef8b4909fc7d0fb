/**
 * What each listener's route table holds: everything on PORT by default; with API_PORT, the
 * decision routes alone on PORT and the handed-off APIs alone on API_PORT, whose front has no
 * decider.
 */
import t from 'tap';
import { buildRouteTable, portRouteSet, type RouteSet } from '../../../../src/app/http/route-table.js';
import { silentLogger } from '../../../../src/observability/index.js';
import { loadSettings } from '../../../../src/settings/index.js';
import { BodyBudget } from '../../../../src/transports/http/index.js';
import { ApiThreadClient } from '../../../../src/transports/http/handoff/index.js';

const settings = loadSettings({ API_PORT: '9093' });
const parts = {
  settings,
  logger: silentLogger,
  decide: () => Promise.reject(new Error('not asked here')),
  isHealthy: () => true,
  apiThread: new ApiThreadClient(1),
  bodyBudget: BodyBudget.create(1024 * 1024),
};
const patterns = (serves: RouteSet, withDecider = true) => new Set(buildRouteTable(withDecider ? parts : { ...parts, decide: undefined }, serves).map((route) => route.pattern));

t.test('PORT serves everything unless API_PORT is set', async (t) => {
  t.equal(portRouteSet(loadSettings({})), 'everything');
  t.equal(portRouteSet(settings), 'decisions');
});

t.test('each route set holds its own routes and no others', async (t) => {
  const everything = patterns('everything');
  const decisions = patterns('decisions');
  const apis = patterns('apis', false);
  for (const path of ['/json', '/healthcheck']) {
    t.ok(everything.has(path) && decisions.has(path), `${path} on PORT`);
    t.notOk(apis.has(path), `${path} not on API_PORT`);
  }
  for (const path of ['/api/v2/*', '/-/*', '/v2/*']) {
    t.ok(everything.has(path) && apis.has(path), `${path} on API_PORT, and on PORT by default`);
    t.notOk(decisions.has(path), `${path} not on PORT beside API_PORT`);
  }
  t.same(new Set([...decisions, ...apis]), everything, 'the two together are the default table');
});

t.test('a listener that decides needs a decider', async (t) => {
  t.throws(() => patterns('decisions', false), { message: 'a listener that serves decisions needs a decider' });
});
