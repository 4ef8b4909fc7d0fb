import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { PORT_RESERVATIONS_DIR, portForLater, portsForLater, reservePort } from '../../support/port-for-later.js';
import { runCommand } from '../../support/command-runner.js';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
const markOf = (port: number) => join(PORT_RESERVATIONS_DIR, String(port));
const markedBy = (port: number) => (existsSync(markOf(port)) ? Number(readFileSync(markOf(port), 'utf8')) : undefined);

t.test('ports for a server started later: free, distinct, and below the ephemeral range', async (t) => {
  const ports = await portsForLater(20);
  t.equal(new Set(ports).size, 20, 'distinct');
  t.ok(ports.every((port) => port >= 10_000 && port < ephemeralFrom), `all in [10000, ${ephemeralFrom}): ${ports.join(' ')}`);
  t.ok(ports.every((port) => markedBy(port) === process.pid), 'each marked with this process\'s pid');
  const port = await portForLater();
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ host: '127.0.0.1', port, exclusive: true }, resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  t.pass(`port ${port} could be bound`);
});

t.test('ports another test process picked are never picked here while it runs, and are free again once it exited', async (t) => {
  // Enough that, were its marks ignored, about one pick in eight here would meet one of its ports.
  const count = Math.floor((ephemeralFrom - 10_000) / 8);
  const script = `import { portsForLater } from ${JSON.stringify(new URL('../../support/port-for-later.js', import.meta.url).href)};
    console.log(JSON.stringify(await portsForLater(${count})));
    process.stdin.resume();`;
  const other = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  other.stdout.setEncoding('utf8');
  const theirs = await new Promise<number[]>((resolve, reject) => {
    other.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.endsWith('\n')) resolve(JSON.parse(output) as number[]);
    });
    other.once('exit', (code) => reject(new Error(`the other process exited (${code}) before it picked`)));
  });
  t.equal(theirs.length, count, `the other process picked ${count} ports`);
  t.ok(theirs.every((port) => markedBy(port) === other.pid), 'all marked with its pid');

  const mine = await portsForLater(1000);
  const taken = mine.filter((port) => theirs.includes(port));
  t.same(taken, [], 'none of its ports picked here while it runs');

  const exited = new Promise((resolve) => other.once('exit', resolve));
  other.stdin.end();
  await exited;
  t.notOk(theirs.some((port) => existsSync(markOf(port))), 'its marks are gone once it exited');
});

t.test('a mark of a live process holds its port; a mark a killed process left behind is taken over', async (t) => {
  const [heldByLive, leftByDead] = unmarkedPorts(2) as [number, number];
  const dead = await pidOfExitedProcess();
  writeFileSync(markOf(heldByLive), String(process.ppid));
  writeFileSync(markOf(leftByDead), String(dead));
  t.teardown(() => rmSync(markOf(heldByLive), { force: true }));
  t.notOk(reservePort(heldByLive), 'a live process\'s port is refused');
  t.equal(markedBy(heldByLive), process.ppid, 'and its mark stays');
  t.ok(reservePort(leftByDead), `a port marked by exited pid ${dead} is taken`);
  t.equal(markedBy(leftByDead), process.pid, 'and marked with this process\'s pid');
  t.notOk(reservePort(leftByDead), 'a port this process holds is not handed out twice');
});

/** Ports below the ephemeral range that no process has marked. */
function unmarkedPorts(count: number): number[] {
  const ports: number[] = [];
  for (let port = 10_000; ports.length < count && port < ephemeralFrom; port++) if (!existsSync(markOf(port))) ports.push(port);
  return ports;
}

async function pidOfExitedProcess(): Promise<number> {
  const child = await runCommand(process.execPath, ['-e', 'console.log(process.pid)']);
  return Number(child.stdout.trim());
}
