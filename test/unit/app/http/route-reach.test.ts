/**
 * Every route the alert and score APIs register is reachable through the HTTP front: its path
 * starts with a prefix of its own API's manifest (the front hands a request over by prefix alone),
 * and no prefix of one API's manifest swallows another's routes.
 */
import t from 'tap';
import { openAlerts } from '../../../../src/app/apis/alerts.js';
import { HANDED_OFF_APIS } from '../../../../src/app/http/route-table.js';
import { openScores } from '../../../../src/app/apis/scores.js';
import { silentLogger } from '../../../../src/observability/index.js';
import { loadSettings } from '../../../../src/settings/index.js';
import type { ApiDefinition } from '../../../../src/transports/http/handoff/index.js';
import { tempDir } from '../../../support/temp-dir.js';

/** The path as a request would send it: parameters filled in. */
function samplePath(pattern: string): string {
  return pattern.replace(/:[A-Za-z]+/g, 'x').replace(/\*$/, 'x');
}

/** The manifest the front would pick for `path`: the longest matching prefix, as uWS's patterns do. */
function frontChoice(path: string): string | undefined {
  let best: { name: string; length: number } | undefined;
  for (const manifest of HANDED_OFF_APIS) {
    for (const prefix of manifest.prefixes) {
      const owns = path === prefix.replace(/\/$/, '') || path.startsWith(prefix);
      if (owns && (best === undefined || prefix.length > best.length)) best = { name: manifest.name, length: prefix.length };
    }
  }
  return best?.name;
}

t.test('every route of every API is handed to that API by the front', async (t) => {
  const settings = loadSettings({ DATA_DIR: await tempDir(t, 'rl-route-reach-') });
  const alerts = await openAlerts(settings, silentLogger);
  const scores = await openScores(settings);
  t.teardown(async () => {
    await alerts.close();
    await scores.close();
  });
  const apis: ApiDefinition[] = [alerts.api, scores.api];
  t.same(apis.map((api) => api.name).sort(), HANDED_OFF_APIS.map((manifest) => manifest.name).sort(), 'one manifest per API');
  let routes = 0;
  for (const api of apis) {
    for (const route of api.routes) {
      routes++;
      const path = samplePath(route.path);
      const chosen = frontChoice(path);
      if (chosen !== api.name) t.fail(`${route.method} ${route.path} of ${api.name} goes to ${chosen ?? 'no API'}`);
    }
  }
  t.ok(routes > 50, `${routes} routes checked`);
});
