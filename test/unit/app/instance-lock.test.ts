/** DATA_DIR taken by one instance at a time, with SQLite's exclusive (fcntl) lock on a file of its own. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { lockDataDir, type InstanceLock } from '../../../src/app/instance-lock.js';
import { ManagedProcess } from '../../support/managed-process.js';
import { tempDir } from '../../support/temp-dir.js';

const LOCK_MODULE = fileURLToPath(new URL('../../../src/app/instance-lock.js', import.meta.url));

function refusal(dir: string, pid: number): string {
  return `another instance is using DATA_DIR ${dir} (process ${pid}); stop it, or give this one a DATA_DIR of its own`;
}

function lockFor(t: Test, dir: string): InstanceLock {
  const lock = lockDataDir(dir);
  t.teardown(() => lock.release());
  return lock;
}

/** Another process that tries to take `dir`: prints `locked` and holds it, or `refused: <message>` and exits 1. */
function otherProcess(t: Test, dir: string): ManagedProcess {
  const script = `
    const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
    try { lockDataDir(${JSON.stringify(dir)}); } catch (error) { console.log('refused: ' + error.message); process.exit(1); }
    console.log('locked');
    setInterval(() => undefined, 60_000);`;
  const child = new ManagedProcess({ command: process.execPath, args: ['--input-type=module', '-e', script], inheritEnv: false });
  t.teardown(() => child.stop());
  return child;
}

t.test('a second lock in this process is refused while the first is held, and taken once it is released', async (t) => {
  const dir = await tempDir(t, 'rl-lock-');
  const lock = lockDataDir(dir);
  t.throws(() => lockDataDir(dir), new Error(refusal(dir, process.pid)));
  lock.release();
  lockFor(t, dir);
  t.pass('taken again after release');
});

t.test('another process is refused while this one holds DATA_DIR, and told which process has it', async (t) => {
  const dir = await tempDir(t, 'rl-lock-');
  lockFor(t, dir);
  const other = otherProcess(t, dir);
  t.same(await other.waitForExit(), { code: 1, signal: null });
  t.equal(other.stdout.trim(), `refused: ${refusal(dir, process.pid)}`);
});

t.test('the lock of a process that dies, even by SIGKILL, is taken by the next one', async (t) => {
  const dir = await tempDir(t, 'rl-lock-');
  const holder = otherProcess(t, dir);
  await holder.waitFor('the other process to hold the lock', (out) => (out.includes('locked') ? true : undefined));
  const pid = holder.child.pid ?? NaN;
  t.throws(() => lockDataDir(dir), new Error(refusal(dir, pid)), 'refused while it lives');
  holder.kill('SIGKILL');
  t.same(await holder.waitForExit(), { code: null, signal: 'SIGKILL' });
  lockFor(t, dir);
  t.pass('taken after it died without releasing');
});

t.test('a DATA_DIR that does not exist yet is created', async (t) => {
  const dir = join(await tempDir(t, 'rl-lock-'), 'data', 'instance');
  lockFor(t, dir);
  t.throws(() => lockDataDir(dir), new Error(refusal(dir, process.pid)));
});

t.test('releasing twice is harmless', async (t) => {
  const dir = await tempDir(t, 'rl-lock-');
  const lock = lockDataDir(dir);
  lock.release();
  t.doesNotThrow(() => lock.release());
  lockFor(t, dir);
});
