/**
 * What an HTTP client can send that used to hurt: a pipeline it never reads (memory grew by
 * gigabytes), HEAD /json (it counted hits), duplicate JSON keys and a hitsAddend of 2^64 (both
 * accepted), and a limit of 4294967295 on a full counter (never over). Also checks the parser
 * behaviours the README's Limits section documents, so the README stays true.
 */
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import t, { type Test } from 'tap';
import { runtimeRoot, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

const RULES = 'domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: 1000000000}\n';
const BODY = JSON.stringify({ domain: 'd', descriptors: [D('k', 'v')] });

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

async function service(t: Test): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  return startProcess(t, { RUNTIME_ROOT: root, HTTP_WORKERS: '0' });
}

/**
 * Sends raw bytes on a fresh connection (pieces a moment apart, so the server most likely reads
 * them apart); resolves with whatever came back once the server closes, after `ms`, or as soon as
 * `enough` says what came back will do, and whether the server closed.
 */
function raw(port: number, text: string | string[], ms: number, enough: (data: string) => boolean = () => false): Promise<{ data: string; closed: boolean }> {
  const pieces = typeof text === 'string' ? [text] : text;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      pieces.forEach((piece, i) => setTimeout(() => socket.writable && socket.write(piece), i * 100));
    });
    let data = '';
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ data, closed });
    };
    socket.on('data', (chunk) => {
      data += String(chunk);
      if (enough(data)) done();
    });
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('error', () => undefined);
    const timer = setTimeout(done, ms);
  });
}

t.test('a client that pipelines and never reads cannot make the service hold its answers', async (t) => {
  const proc = await service(t);
  const pid = proc.child.pid as number;
  const request = `POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`;
  const batch = Buffer.from(request.repeat(1000));
  const before = await rssMiB(pid);
  const outcome = await new Promise<{ sentRequests: number; ended: string }>((resolve) => {
    const socket = connect(proc.httpPort as number, '127.0.0.1');
    socket.pause(); // never read a byte of the answers
    let sentRequests = 0;
    const done = (ended: string) => {
      socket.destroy();
      resolve({ sentRequests, ended });
    };
    const deadline = setTimeout(() => done('still blocked after 5 s'), 5000);
    socket.on('close', () => {
      clearTimeout(deadline);
      done('closed by the server');
    });
    socket.on('error', () => undefined);
    const pump = () => {
      while (!socket.destroyed) {
        sentRequests += 1000;
        if (!socket.write(batch)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', pump);
  });
  const grown = (await rssMiB(pid)) - before;
  t.ok(grown < 64, `RSS grew ${grown.toFixed(1)} MiB while the client sent ${outcome.sentRequests} requests (${outcome.ended})`);
  t.ok(outcome.sentRequests < 500_000, 'the service stopped taking requests it could not answer');
  const other = await proc.post(JSON.parse(BODY));
  t.equal(other.status, 200, 'other clients are answered meanwhile');
});

t.test('HEAD /json is refused and counts nothing', async (t) => {
  const proc = await service(t);
  const head = await raw(proc.httpPort as number, `HEAD /json HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, 500);
  t.match(head.data, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
  t.match(head.data, /\r\nAllow: POST\r\n/);
  t.notOk(head.data.includes('Method Not Allowed\n'), 'no body to a HEAD request');
  const hits = await proc.post({ domain: 'd', descriptors: [{ ...D('k', 'v'), hitsAddend: 0 }] });
  t.equal(hits.json?.statuses?.[0]?.limitRemaining, 1_000_000_000, 'no hit was counted');
  const headHealth = await raw(proc.httpPort as number, 'HEAD /healthcheck HTTP/1.1\r\nHost: x\r\n\r\n', 300);
  t.match(headHealth.data, /^HTTP\/1\.1 200 OK\r\n[\s\S]*Content-Length: 2\r\n\r\n$/, "HEAD elsewhere: GET's headers, no body");
});

t.test('duplicate JSON keys and a hitsAddend of 2^64 are refused with a reason', async (t) => {
  const proc = await service(t);
  const duplicate = await proc.post('{"domain":"d","domain":"e","descriptors":[{"entries":[{"key":"k","value":"v"}]}]}');
  t.equal(duplicate.status, 400);
  t.equal(duplicate.headers['x-ratelimit-error'], 'domain: duplicate field');
  const nested = await proc.post('{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v","value":"w"}]}]}');
  t.equal(nested.headers['x-ratelimit-error'], 'descriptors[0].entries[0].value: duplicate field');
  const huge = await proc.post('{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}],"hitsAddend":18446744073709551616}]}');
  t.equal(huge.status, 400);
  t.equal(huge.headers['x-ratelimit-error'], 'descriptors[0].hitsAddend: out of range for uint64');
  const max = await proc.post('{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"max"}],"hitsAddend":18446744073709551615}]}');
  t.equal(max.status, 429, '2^64-1 is a valid addend (and over any limit)');
});

t.test('a limit of 4294967295 is passed once the embedded counter is full', async (t) => {
  const proc = await service(t);
  const ask = (hits: number) =>
    proc.post({ domain: 'd', descriptors: [{ ...D('k', 'full'), hitsAddend: hits, limit: { requestsPerUnit: 4294967295, unit: 'HOUR' } }] });
  t.equal((await ask(4294967295)).status, 200, 'exactly at the limit');
  const over = await ask(1);
  t.equal(over.status, 429, 'one more is over, though the stored count cannot grow');
  t.equal(over.json?.statuses?.[0]?.code, 'OVER_LIMIT');
});

// uWebSockets.js's own HTTP parser decides these before any handler runs (README, Limits).
t.test('requests the uWS parser drops are as the README says', async (t) => {
  const proc = await service(t);
  const port = proc.httpPort as number;
  const post = (requestLine: string, headers = '') => `${requestLine}\r\nHost: x\r\n${headers}Content-Length: ${BODY.length}\r\n\r\n${BODY}`;
  t.equal((await raw(port, post('POST /json HTTP/1.0'), 500)).data, '', 'HTTP/1.0: no answer');
  t.equal((await raw(port, post('POST http://x/json HTTP/1.1'), 500)).data, '', 'absolute-form target: no answer');
  const many = Array.from({ length: 60 }, (_, i) => `X-H${i}: v\r\n`).join('');
  t.equal((await raw(port, post('POST /json HTTP/1.1', many), 500)).data, '', 'more than 48 headers: no answer');
  const header = (bytes: number) => `X-Big: ${'a'.repeat(bytes)}\r\n`;
  const small = post('POST /json HTTP/1.1', header(3 * 1024));
  const inPieces = await raw(port, [small.slice(0, 1500), small.slice(1500)], 10_000, (data) => data.includes('\r\n\r\n'));
  t.match(inPieces.data, /^HTTP\/1\.1 200 OK/, 'a 3 KiB request head that arrives in pieces is answered');
  // However it is read, an unfinished head past 4 KiB has to wait in uWS's 4 KiB buffer for the rest.
  const unfinished = await raw(port, `POST /json HTTP/1.1\r\nHost: x\r\n${header(5 * 1024)}`, 10_000);
  t.same(unfinished, { data: '', closed: true }, 'an unfinished 5 KiB head: closed at once, no status');
  t.same(await raw(port, post('POST /json HTTP/1.1', header(1024 * 1024)), 500), { data: '', closed: true }, 'a 1 MiB header: closed at once, no status');
  const extension = await raw(port, `POST /json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)};ext=1\r\n${BODY}\r\n0\r\n\r\n`, 500);
  t.same(extension, { data: '', closed: true }, 'a chunk extension: the connection is closed at once');
  const trailers = await raw(port, `POST /json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\nX-T: 1\r\n\r\n`, 500);
  t.match(trailers.data, /^HTTP\/1\.1 200 OK/, 'trailers are read and ignored');
  const twoLengths = await raw(port, `POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY.length}\r\nContent-Length: ${BODY.length + 5}\r\n\r\n${BODY}`, 500);
  t.match(twoLengths.data, /^HTTP\/1\.1 200 OK/, 'two Content-Length headers: the first frames the body');
  await waitFor('the service to answer after all that', async () => (await proc.post(JSON.parse(BODY))).status === 200);
});

t.test('SIGUSR1 does not open the Node.js inspector', async (t) => {
  const proc = await service(t);
  process.kill(proc.child.pid as number, 'SIGUSR1');
  await waitFor('the ignored signal to be logged', () => proc.stderr.includes('SIGUSR1 ignored'));
  const inspector = await new Promise<string>((resolve) => {
    const socket = connect(9229, '127.0.0.1', () => {
      socket.destroy();
      resolve('listening');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  t.equal(inspector, 'ECONNREFUSED', 'nothing listens on 9229');
  t.equal((await proc.post(JSON.parse(BODY))).status, 200, 'the service goes on');
});
