/**
 * A node:http server in a process of its own that reads every request's body and answers 200
 * with an empty JSON array: the control beside a server under test, so a benchmark can tell the
 * host's share of a measure (the client's own work, the load generator, the kernel) from the
 * server's.
 */
import { ManagedProcess } from '../test/support/managed-process.js';
import type { Teardown } from '../test/support/teardown.js';

const SOURCE = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
`;

/** Starts the server; it is stopped (SIGTERM) with the teardown. Resolves with its base URL and PID. */
export async function startDiscardServer(teardown: Teardown): Promise<{ url: string; pid: number }> {
  const server = new ManagedProcess({ command: process.execPath, args: ['-e', SOURCE] });
  teardown.teardown(() => server.stop());
  const port = await server.waitFor('the discard server to listen', (output) => /listening on (\d+)/.exec(output)?.[1]);
  return { url: `http://127.0.0.1:${port}`, pid: server.child.pid as number };
}
