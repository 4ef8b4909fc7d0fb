/**
 * listenOnFreePort against real sockets: a port picked free can be taken before it is bound, and
 * then another is picked.
 */
import { createServer, type Server } from 'node:net';
import t from 'tap';
import { freePort, listenOnFreePort } from '../../../src/transports/free-port.js';

function listenOn(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => resolve(server));
  });
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));
const inUse = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EADDRINUSE';

t.test('a port taken between the pick and the bind: another port is picked and bound', async (t) => {
  const squatter = await listenOn(0);
  t.teardown(() => close(squatter));
  const taken = (squatter.address() as { port: number }).port;
  const picked: number[] = [];
  // The first pick is a port another socket already holds, as when it took the port meanwhile.
  const pick = async (host: string) => {
    const port = picked.length === 0 ? taken : await freePort(host);
    picked.push(port);
    return port;
  };
  const server = await listenOnFreePort('127.0.0.1', listenOn, inUse, 5, pick);
  t.teardown(() => close(server));
  const bound = (server.address() as { port: number }).port;
  t.equal(picked.length, 2, 'a second port was picked');
  t.equal(picked[0], taken);
  t.equal(bound, picked[1], 'and bound');
  t.not(bound, taken);
});

t.test('past the number of picks, the last failure is the answer', async (t) => {
  const squatter = await listenOn(0);
  t.teardown(() => close(squatter));
  const taken = (squatter.address() as { port: number }).port;
  let picks = 0;
  const pick = () => {
    picks++;
    return Promise.resolve(taken);
  };
  await t.rejects(listenOnFreePort('127.0.0.1', listenOn, inUse, 3, pick), { code: 'EADDRINUSE' });
  t.equal(picks, 3);
});

t.test('an error that is not a taken port is not retried', async (t) => {
  let picks = 0;
  const pick = () => {
    picks++;
    return freePort('127.0.0.1');
  };
  const refused = () => Promise.reject(new Error('the certificate does not load'));
  await t.rejects(listenOnFreePort('127.0.0.1', refused, inUse, 5, pick), { message: 'the certificate does not load' });
  t.equal(picks, 1);
});
