import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import t from 'tap';
import { portForLater, portsForLater } from '../../support/port-for-later.js';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

t.test('ports for a server started later: free, distinct, and below the ephemeral range', async (t) => {
  const ports = await portsForLater(20);
  t.equal(new Set(ports).size, 20, 'distinct');
  t.ok(ports.every((port) => port >= 10_000 && port < ephemeralFrom), `all in [10000, ${ephemeralFrom}): ${ports.join(' ')}`);
  const port = await portForLater();
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ host: '127.0.0.1', port, exclusive: true }, resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  t.pass(`port ${port} could be bound`);
});
