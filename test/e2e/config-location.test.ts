/**
 * Where configuration files are found, as upstream's goruntime loader: RUNTIME_SUBDIRECTORY,
 * RUNTIME_APPDIRECTORY, RUNTIME_WATCH_ROOT naming, any extension, subdirectories,
 * RUNTIME_IGNOREDOTFILES and MERGE_DOMAIN_CONFIG, checked through /json and the stats.
 */
import t from 'tap';
import { startService, type Service } from '../support/service-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import { BAD_REQUEST, NO_LIMIT, ok, response } from './expect.js';

const basicKey1 = { domain: 'basic', descriptors: [D('key1', 'loc')] };
const anotherKey2 = { domain: 'another', descriptors: [D('key2', 'loc')] };
const BASIC_OK = response('OK', [ok(50, 'SECOND', 49, 1)]);
const ANOTHER_OK = response('OK', [ok(20, 'MINUTE', 19, 20)]);
const UNKNOWN = response('OK', [NO_LIMIT]);

async function loaded(svc: Service): Promise<{ success: number; error: number }> {
  return { success: svc.stat('ratelimit.service.config_load_success'), error: svc.stat('ratelimit.service.config_load_error') };
}

t.test('RUNTIME_SUBDIRECTORY and RUNTIME_APPDIRECTORY select the directory', async (t) => {
  const svc = await startService(t, {
    env: { RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_APPDIRECTORY: 'rl' },
    tree: {
      'ratelimit/rl/basic.yaml': fixture('basic.yaml'),
      'ratelimit/config/another.yaml': fixture('another.yaml'), // not the app directory
      'config/another.yaml': fixture('another.yaml'), // not under the subdirectory
    },
  });
  t.same(await loaded(svc), { success: 1, error: 0 });
  t.same((await svc.post(basicKey1)).json, BASIC_OK);
  t.same((await svc.post(anotherKey2)).json, UNKNOWN, 'files outside RUNTIME_ROOT/RUNTIME_SUBDIRECTORY/RUNTIME_APPDIRECTORY are ignored');
});

t.test('subdirectories are read recursively and every file is YAML whatever its extension', async (t) => {
  for (const watchRoot of ['true', 'false']) {
    const svc = await startService(t, {
      env: { RUNTIME_WATCH_ROOT: watchRoot },
      tree: {
        'config/nested/deeper/basic.yaml': fixture('basic.yaml'),
        'config/another.txt': fixture('another.yaml'),
        'elsewhere/x.yaml': 'domain: elsewhere\ndescriptors:\n  - key: k\n    rate_limit:\n      unit: second\n      requests_per_unit: 1\n',
      },
    });
    t.same(await loaded(svc), { success: 1, error: 0 }, `RUNTIME_WATCH_ROOT=${watchRoot}`);
    t.same((await svc.post(basicKey1)).json, BASIC_OK, `RUNTIME_WATCH_ROOT=${watchRoot}: nested file loaded`);
    t.same((await svc.post(anotherKey2)).json, ANOTHER_OK, `RUNTIME_WATCH_ROOT=${watchRoot}: .txt file loaded`);
    t.same((await svc.post({ domain: 'elsewhere', descriptors: [D('k', 'v')] })).json, UNKNOWN, `RUNTIME_WATCH_ROOT=${watchRoot}: outside the app dir ignored`);
    await svc.close();
  }
});

t.test('error messages name the file as the loader does for each RUNTIME_WATCH_ROOT', async (t) => {
  for (const [watchRoot, name] of [
    ['true', 'config.sub.bad.yaml'],
    ['false', 'sub.bad.yaml'],
  ] as const) {
    const svc = await startService(t, { env: { RUNTIME_WATCH_ROOT: watchRoot }, tree: { 'config/sub/bad.yaml': 'domain: ""\ndescriptors: []\n' } });
    t.same(await loaded(svc), { success: 0, error: 1 });
    const logged = svc.logs.find((l) => l.msg.startsWith('Error loading new configuration: '))?.msg;
    t.equal(logged, `Error loading new configuration: ${name}: config file cannot have empty domain`, `RUNTIME_WATCH_ROOT=${watchRoot}`);
    await svc.close();
  }
});

t.test('RUNTIME_IGNOREDOTFILES skips dot files and directories (k8s ConfigMap ..data)', async (t) => {
  const tree = { 'config/basic.yaml': fixture('basic.yaml'), 'config/..data/basic.yaml': fixture('basic.yaml'), 'config/.hidden.yaml': fixture('another.yaml') };
  const withDots = await startService(t, { tree });
  t.same(await loaded(withDots), { success: 0, error: 1 }, 'by default the ..data copy is a duplicate domain');
  const r = await withDots.post(basicKey1);
  t.equal(r.status, 400, 'no configuration loaded');
  t.equal(r.text, BAD_REQUEST);
  await withDots.close();

  const ignoring = await startService(t, { tree, env: { RUNTIME_IGNOREDOTFILES: 'true' } });
  t.same(await loaded(ignoring), { success: 1, error: 0 });
  t.same((await ignoring.post(basicKey1)).json, BASIC_OK);
  t.same((await ignoring.post(anotherKey2)).json, UNKNOWN, '.hidden.yaml is skipped too');
});

t.test('MERGE_DOMAIN_CONFIG allows one domain across files', async (t) => {
  const part = (key: string, n: number) => `domain: merged\ndescriptors:\n  - key: ${key}\n    rate_limit:\n      unit: hour\n      requests_per_unit: ${n}\n`;
  const files = { 'a.yaml': part('ka', 3), 'b.yaml': part('kb', 4) };
  const strict = await startService(t, { files });
  t.same(await loaded(strict), { success: 0, error: 1 });
  t.equal(
    strict.logs.find((l) => l.level === 'error')?.msg,
    "Error loading new configuration: config.b.yaml: duplicate domain 'merged' in config file",
    'the second file is named',
  );
  await strict.close();

  const merging = await startService(t, { files, env: { MERGE_DOMAIN_CONFIG: 'true' } });
  t.same(await loaded(merging), { success: 1, error: 0 });
  const r = await merging.post({ domain: 'merged', descriptors: [D('ka', 'x'), D('kb', 'x')] });
  t.same(r.json, response('OK', [ok(3, 'HOUR', 2, 800), ok(4, 'HOUR', 3, 800)]));
});
