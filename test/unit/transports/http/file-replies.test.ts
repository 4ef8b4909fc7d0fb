/**
 * Replies whose body is a file, on a real uWS listener: the file goes out whole and intact, a
 * client that stops reading holds one chunk of it in memory (not the file), and a client that
 * leaves mid-body closes the file and ends the request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { startHttpServer, type HttpRoute } from '../../../../src/transports/http/index.js';
import { tempDir } from '../../../support/temp-dir.js';

const SIZE = 64 * 1024 * 1024;
/** The status line and headers of the file answers, to the byte. */
const HEAD_BYTES = 'HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\nuWebSockets: 20\r\nContent-Length: 67108864\r\n\r\n'.length;
const dir = await tempDir(t, 'rl-file-replies-');
const file = join(dir, 'export.bin');
const content = randomBytes(SIZE);
await writeFile(file, content);
const digest = createHash('sha256').update(content).digest('hex');

const routes: HttpRoute[] = [
  { method: 'get', pattern: '/file', handle: (exchange) => exchange.replyFile('200 OK', [['Content-Type', 'application/octet-stream']], file, SIZE) },
  { method: 'get', pattern: '/missing', handle: (exchange) => exchange.replyFile('200 OK', [], join(dir, 'gone.bin'), 10) },
];
const server = await startHttpServer({ host: '127.0.0.1', port: 0, routes });
t.teardown(() => server.close(0));

/** Descriptors this process holds open on the exported file. */
function openCopies(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

/** Sends `GET path` and hands back the socket, paused: the test decides when to read. */
function request(path: string, method = 'GET'): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.pause();
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      resolve(socket);
    });
  });
}

/** Reads until `enough(bytes received)` or the server closes; resolves with all it received. */
function readAll(socket: Socket, enough: (received: number) => boolean): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks, size));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (enough(size)) {
        socket.off('close', done);
        done();
      }
    });
    socket.once('close', done);
    socket.resume();
  });
}

function splitResponse(received: Buffer): { head: string; body: Buffer } {
  const end = received.indexOf('\r\n\r\n');
  return { head: received.subarray(0, end).toString('latin1'), body: received.subarray(end + 4) };
}

t.test('the file goes out whole and intact, with its length', async (t) => {
  const socket = await request('/file');
  const received = await readAll(socket, (size) => size >= SIZE + HEAD_BYTES);
  socket.destroy();
  const { head, body } = splitResponse(received);
  t.match(head, /^HTTP\/1\.1 200 OK\r\n/);
  t.match(head, new RegExp(`Content-Length: ${SIZE}`, 'i'));
  t.equal(body.byteLength, SIZE);
  t.equal(createHash('sha256').update(body).digest('hex'), digest, 'byte for byte');
});

t.test('a client that stops reading holds a chunk of the file, not the file', async (t) => {
  const before = process.memoryUsage().rss;
  const sockets = await Promise.all(Array.from({ length: 4 }, () => request('/file')));
  // Long enough for the server to fill every socket buffer and wait for the client.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const grownMiB = (process.memoryUsage().rss - before) / 1024 / 1024;
  t.ok(grownMiB < 32, `RSS grew ${grownMiB.toFixed(1)} MiB with four 64 MiB answers waiting on clients that do not read`);
  const first = sockets[0] as Socket;
  const received = await readAll(first, (size) => size >= SIZE + HEAD_BYTES);
  t.equal(splitResponse(received).body.byteLength, SIZE, 'a reader that comes back gets the rest');
  for (const socket of sockets) socket.destroy();
});

t.test('a client that leaves mid-body closes the file', async (t) => {
  const deadline = Date.now() + 5000;
  const settle = async () => {
    while (openCopies() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  await settle(); // the readers of the test before are gone
  const socket = await request('/file');
  await readAll(socket, (size) => size > 4 * 1024 * 1024);
  t.equal(openCopies(), 1, 'the file is open while it is sent');
  socket.destroy();
  await settle();
  t.equal(openCopies(), 0, 'closed once the client left');
});

t.test('HEAD gets the status and length without the body', async (t) => {
  const socket = await request('/file', 'HEAD');
  const received = await readAll(socket, (size) => size >= 60);
  socket.destroy();
  t.match(received.toString('latin1'), new RegExp(`^HTTP/1\\.1 200 OK\\r\\n[^]*Content-Length: ${SIZE}`, 'i'));
});

t.test('a file that cannot be read closes the connection rather than send a wrong body', async (t) => {
  const socket = await request('/missing');
  const received = await readAll(socket, () => false);
  t.notMatch(received.toString('latin1'), /\r\n\r\n/, 'the connection closed before the answer was complete');
});
