/**
 * runCommand: commands run from the helper process, not the test's, and come back with their
 * exit code, output, timeout and start failures.
 */
import t from 'tap';
import { describeFailure, runCommand } from '../../support/command-runner.js';

t.test('a command runs from the helper process, with its output and exit code', async (t) => {
  const result = await runCommand('sh', ['-c', 'echo "$PPID"; echo oops >&2; exit 3']);
  t.equal(result.code, 3);
  t.equal(result.stderr, 'oops\n');
  const parent = Number(result.stdout.trim());
  t.ok(parent > 0 && parent !== process.pid, `its parent is the helper (${parent}), not this process (${process.pid})`);
  t.equal(describeFailure(result), `oops\n${parent}`, 'a failure reads stderr, then stdout');
});

t.test('the environment, working directory and stdin are the ones given', async (t) => {
  const result = await runCommand('sh', ['-c', 'echo "$GREETING"; pwd; cat'], { env: { PATH: process.env['PATH'], GREETING: 'héllo' }, cwd: '/tmp', input: 'from stdin' });
  t.equal(result.code, 0);
  t.equal(result.stdout, 'héllo\n/tmp\nfrom stdin');
  const closed = await runCommand('cat', []);
  t.equal(closed.stdout, '', 'without input, stdin is empty rather than left open');
});

t.test('a command past its time is killed and says so', async (t) => {
  const started = Date.now();
  const result = await runCommand('sleep', ['30'], { timeoutMs: 200 });
  t.ok(result.timedOut);
  t.equal(result.signal, 'SIGKILL');
  t.ok(Date.now() - started < 10_000, 'it did not wait for the command');
  t.equal(describeFailure(result, 200), 'still running after 200 ms');
});

t.test('a command that cannot start is reported, not thrown', async (t) => {
  const result = await runCommand('/nonexistent/command', []);
  t.equal(result.code, null);
  t.match(result.spawnError, /ENOENT/);
});

t.test('commands run side by side and each gets its own answer', async (t) => {
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) => runCommand('sh', ['-c', `sleep 0.0${i}; echo ${i}`])));
  t.same(
    results.map((r) => r.stdout.trim()),
    ['0', '1', '2', '3', '4', '5', '6', '7'],
  );
});
