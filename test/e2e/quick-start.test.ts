/**
 * The README's Quick start as a newcomer meets it: `npm run serve` (what `npm start` runs after
 * building) on a copy of the bundled example prints one ready line at the default log level and
 * nothing after it, an edit to the example rules takes effect within 2 s, and Ctrl-C (SIGINT to
 * the process group, as a terminal sends it) stops it at once.
 */
import { spawn } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseReadyLine } from '../support/process-harness.js';
import { httpRequest } from '../support/http-request.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const ASK = { domain: 'example', descriptors: [{ entries: [{ key: 'remote_address', value: '10.0.0.1' }] }] };

t.test('npm start serves the example, says it is ready, reloads an edited rule within 2 s, is quiet, and stops on Ctrl-C', async (t) => {
  const dir = await tempDir(t, 'rl-quick-start-');
  await cp(join(REPO, 'config'), join(dir, 'config'), { recursive: true });
  const example = join(dir, 'config', 'ratelimit', 'config', 'example.yaml');

  // No LOG_LEVEL: the default level must still say the service is up.
  const env: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', RUNTIME_ROOT: join(dir, 'config'), DATA_DIR: join(dir, 'data') };
  Object.assign(env, { PORT: '0', GRPC_PORT: '0', DEBUG_PORT: '0', HOST: '127.0.0.1', GRPC_HOST: '127.0.0.1', DEBUG_HOST: '127.0.0.1', HTTP_WORKERS: '1' });
  const child = spawn('npm', ['run', '--silent', 'serve'], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.teardown(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));

  const ports = await waitFor('the ready line', () => parseReadyLine(output), 20_000);
  const readyLines = output.split('\n').filter((line) => line.includes('msg="ready"'));
  t.equal(readyLines.length, 1, 'one ready line');
  t.match(readyLines[0], /level=info msg="ready" http=\d+ debug=\d+ grpc=\d+ store="memory" httpThreads=1 decisions="inline"/);

  const url = `http://127.0.0.1:${ports.http}/json`;
  const before = await httpRequest(url, { method: 'POST', body: JSON.stringify(ASK) });
  t.equal(before.json?.statuses?.[0]?.currentLimit?.requestsPerUnit, 10, 'the bundled limit');

  const text = await readFile(example, 'utf8');
  await writeFile(example, text.replace('requests_per_unit: 10\n', 'requests_per_unit: 77\n'));
  const edited = Date.now();
  await waitFor(
    'the edited limit',
    async () => (await httpRequest(url, { method: 'POST', body: JSON.stringify(ASK) })).json?.statuses?.[0]?.currentLimit?.requestsPerUnit === 77,
    2000,
  );
  t.ok(Date.now() - edited <= 2000, `in effect after ${Date.now() - edited} ms`);

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A statistics flush interval (10 s) and more would have passed by now in a real session; what
  // the default level shows after the ready line must be nothing at all.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const afterReady = output.slice(output.indexOf(readyLines[0] as string) + (readyLines[0] as string).length).trim();
  t.equal(afterReady, '', 'nothing logged after the ready line');
  const interrupted = Date.now();
  process.kill(-(child.pid as number), 'SIGINT');
  const code = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000))]);
  t.not(code, 'still running', `stopped ${Date.now() - interrupted} ms after Ctrl-C`);
  const refused = await httpRequest(url, { method: 'POST', body: JSON.stringify(ASK) }).then(
    () => 'answered',
    () => 'refused',
  );
  t.equal(refused, 'refused', 'the port is closed');
});
