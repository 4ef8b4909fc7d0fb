/**
 * The Quick start serves through npm (`npm start` builds, then runs `npm run serve`), so an
 * operator or a process manager stops the service by signalling npm. npm passes SIGTERM on to
 * the process it started; a shell between npm and the service would die of it and leave the
 * service running, with its ports, and no parent.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { packageFile } from '../../src/transports/package-files.js';
import { ManagedProcess } from '../support/managed-process.js';
import { parseReadyLine } from '../support/process-harness.js';
import { childrenOf, isRunning } from '../support/process-memory.js';
import { fixture, LOCAL_LISTENERS_ENV } from '../support/service-inputs.js';
import { tempDir } from '../support/temp-dir.js';

const scripts = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

t.test('SIGTERM to `npm run serve` reaches the service: it drains and exits, then npm exits', async (t) => {
  const dir = await tempDir(t, 'rl-npm-');
  await mkdir(join(dir, 'ratelimit', 'config'), { recursive: true });
  await writeFile(join(dir, 'ratelimit', 'config', 'basic.yaml'), fixture('basic.yaml'));
  const npm = new ManagedProcess({
    command: 'npm',
    args: ['--prefix', packageFile('.'), 'run', 'serve'],
    env: { ...LOCAL_LISTENERS_ENV, APIS: 'none', HTTP_WORKERS: '1', RUNTIME_ROOT: dir, DATA_DIR: join(dir, 'data') },
    inheritEnv: false,
  });
  t.teardown(() => npm.stop());
  await npm.waitFor('the "ready" log line', parseReadyLine, 20_000);

  const children = await childrenOf(npm.child.pid as number);
  // Wherever the service runs below npm, it is stopped in the end, as an operator would.
  const grandchildren = (await Promise.all(children.map((child) => childrenOf(child.pid)))).flat();
  t.teardown(() => {
    for (const { pid } of [...children, ...grandchildren]) if (isRunning(pid)) process.kill(pid, 'SIGTERM');
  });
  t.same(children.map((child) => child.name), ['node'], `npm's one child is the service itself, no shell between (${JSON.stringify(children)})`);
  const service = [...children, ...grandchildren].find((process) => process.name === 'node')?.pid;
  npm.kill('SIGTERM');
  const exit = await npm.waitForExit(15_000);
  t.match(npm.output, /received SIGTERM, draining and shutting down/, 'the service got the signal');
  t.same(exit, { code: 0, signal: null }, 'npm exits 0 after the service');
  t.ok(service !== undefined && !isRunning(service), `the service (pid ${service}) is gone`);
});

t.test('`npm start` hands its process to `npm run serve` once built, so the signal goes the same way', async (t) => {
  t.match(scripts['start'], /&& exec npm run serve$/, 'start ends by exec-ing serve');
  t.match(scripts['serve'], / exec node /, 'serve execs node');
});
