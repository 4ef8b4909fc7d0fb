/**
 * Alert and score request bodies held by the HTTP threads are bounded all together
 * (API_MAX_BODY_BYTES_IN_FLIGHT), not per connection: slow uploads that withhold their last
 * byte used to hold API_MAX_REQUEST_BYTES each, gigabytes over a hundred connections. Past the
 * budget a request is refused at once (503, in its API's form), and what a connection held comes
 * back when it ends.
 */
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { runtimeRoot, spawnProcess, startProcess, type ServiceProcess } from '../support/process-harness.js';
import { D } from '../support/service-inputs.js';
import { waitFor } from '../support/wait-for.js';

const RULES = 'domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: hour, requests_per_unit: 1000000}\n';

async function service(t: Test, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  return startProcess(t, { APIS: 'alerts,scores', RUNTIME_ROOT: root, ...env });
}

async function rssMiB(pid: number): Promise<number> {
  return Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** An upload that sends `sendBytes` of its body and withholds the rest; `answer` is what came back (if anything). */
interface SlowUpload {
  socket: Socket;
  answer: () => string;
}

function slowUpload(t: Test, port: number, head: string, sendBytes: number): Promise<SlowUpload> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      socket.write(Buffer.alloc(sendBytes, 0x20), () => resolve({ socket, answer: () => answer }));
    });
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('error', () => undefined);
    t.teardown(() => void socket.destroy());
  });
}

/** Sends a declared upload as fast as the service takes it for `ms`; what it answered and how much it took. */
function floodUpload(port: number, bytes: number, ms: number): Promise<{ answer: string; acceptedBytes: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let answer = '';
    let accepted = 0;
    socket.on('data', (data) => (answer += String(data)));
    socket.on('error', () => undefined);
    const pump = (): void => {
      while (accepted < bytes) {
        accepted += chunk.byteLength;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(declared(bytes));
      pump();
    });
    setTimeout(() => {
      socket.destroy();
      resolve({ answer, acceptedBytes: accepted - socket.writableLength });
    }, ms);
  });
}

const declared = (bytes: number) => `POST /api/v2/alerts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`;
const chunked = `POST /v2/scores HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${(64 * 1024).toString(16)}\r\n`;

t.test('40 uploads of 30 MB that withhold their last byte hold the budget, not 1.2 GB', async (t) => {
  const proc = await service(t);
  const pid = proc.child.pid as number;
  const before = await rssMiB(pid);
  const uploads = await Promise.all(Array.from({ length: 40 }, () => slowUpload(t, proc.httpPort as number, declared(30_000_000), 1024 * 1024)));
  await waitFor('the refusals', () => uploads.filter((u) => u.answer() !== '').length >= 38, 5000);
  const refused = uploads.filter((u) => u.answer().startsWith('HTTP/1.1 503'));
  t.ok(refused.length >= 38, `${refused.length} of 40 refused at once (the 64 MiB default holds two bodies of 30 MB)`);
  t.match(refused[0]?.answer(), /"message":"request bodies being read take API_MAX_BODY_BYTES_IN_FLIGHT \(67108864 bytes\) already; try again"/);
  const grown = (await rssMiB(pid)) - before;
  t.ok(grown < 150, `RSS ${before.toFixed(0)} MiB before, ${(before + grown).toFixed(0)} MiB with the uploads held`);
  t.equal((await proc.post({ domain: 'd', descriptors: [D('k', 'v')] })).status, 200, '/json decides meanwhile');

  // An upload refused for the budget is not read: one that keeps sending gets as far as the
  // socket buffers take it, then waits, costing the HTTP thread nothing.
  const flood = await floodUpload(proc.httpPort as number, 30_000_000, 2000);
  t.match(flood.answer, /^HTTP\/1\.1 503 [^]*Connection: close/i, 'refused at once, and told the connection is done');
  t.ok(flood.acceptedBytes < 16 * 1024 * 1024, `the service took ${(flood.acceptedBytes / 1048576).toFixed(1)} MiB of a 30 MB upload it refused`);

  for (const upload of uploads) upload.socket.destroy();
  const after = await waitFor('the budget to come back', async () => {
    const answer = await proc.request('/api/v2/alerts', { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } });
    return answer.status === 200 && answer;
  });
  t.equal(after.status, 200, 'bodies are read again once the slow uploads went away');
});

t.test('declared and chunked bodies alike are refused past the budget, in their API form', async (t) => {
  const proc = await service(t, { API_MAX_REQUEST_BYTES: String(1024 * 1024), API_MAX_BODY_BYTES_IN_FLIGHT: String(2 * 1024 * 1024) });
  const port = proc.httpPort as number;
  const holders = await Promise.all([slowUpload(t, port, declared(1024 * 1024), 1000), slowUpload(t, port, declared(1024 * 1024), 1000)]);
  const alert = await waitFor('a declared body to be refused', async () => {
    const answer = await proc.request('/api/v2/alerts', { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } });
    return answer.status === 503 && answer;
  });
  t.match(alert.json, { code: 503, message: /API_MAX_BODY_BYTES_IN_FLIGHT \(2097152 bytes\)/ }, "Alertmanager's error form");
  const score = await slowUpload(t, port, chunked, 64 * 1024);
  await waitFor('the chunked upload to be refused', () => score.answer() !== '', 5000);
  t.match(score.answer(), /^HTTP\/1\.1 503 /);
  t.match(score.answer(), /"code":"SERVICE_UNAVAILABLE","message":"request bodies being read take API_MAX_BODY_BYTES_IN_FLIGHT/, 'the Flat error form');

  const tooLarge = await proc.request('/api/v2/alerts', { method: 'POST', body: ' '.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } });
  t.equal(tooLarge.status, 413, 'a body over API_MAX_REQUEST_BYTES is still 413, whatever the budget');

  for (const holder of holders) holder.socket.destroy();
  const after = await waitFor('the budget to come back', async () => {
    const answer = await proc.request('/api/v2/alerts', { method: 'POST', body: '[]', headers: { 'content-type': 'application/json' } });
    return answer.status === 200 && answer;
  });
  t.equal(after.status, 200, 'answered once the holders left');
});

t.test('API_MAX_BODY_BYTES_IN_FLIGHT below API_MAX_REQUEST_BYTES stops startup with a reason', async (t) => {
  const { root } = await runtimeRoot(t, { 'd.yaml': RULES });
  const proc = spawnProcess(t, { APIS: 'alerts', RUNTIME_ROOT: root, API_MAX_BODY_BYTES_IN_FLIGHT: '1048576' });
  t.equal((await proc.waitForExit()).code, 1);
  t.match(proc.stderr, 'API_MAX_BODY_BYTES_IN_FLIGHT (1048576) is smaller than API_MAX_REQUEST_BYTES (33554432)');
});
