import { execFileSync } from 'node:child_process';
import t from 'tap';
import { defaultHttpWorkers } from '../../../src/settings/index.js';

t.test('HTTP_WORKERS defaults to one thread per core but one, and to the main thread on a single core', async (t) => {
  t.equal(defaultHttpWorkers(1), 0);
  t.equal(defaultHttpWorkers(2), 1);
  t.equal(defaultHttpWorkers(8), 7);
});

t.test('the default follows CPU affinity: a process pinned to one core serves HTTP on its main thread', async (t) => {
  const settingsModule = new URL('../../../src/settings/index.js', import.meta.url).href;
  const script = `import(${JSON.stringify(settingsModule)}).then((m) => console.log(m.loadSettings({}).httpWorkers))`;
  const pinned = execFileSync('taskset', ['-c', '0', process.execPath, '-e', script], { encoding: 'utf8' }).trim();
  t.equal(pinned, '0');
  const twoCores = execFileSync('taskset', ['-c', '0,1', process.execPath, '-e', script], { encoding: 'utf8' }).trim();
  t.equal(twoCores, '1');
});
