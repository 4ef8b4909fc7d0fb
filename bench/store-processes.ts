/**
 * redis-server and memcached for benchmarks: on a free port, optionally pinned to CPUs, no
 * persistence, stopped by the caller.
 */
import { createServer, type AddressInfo } from 'node:net';
import { createConnection } from 'node:net';
import { ManagedProcess } from './managed-process.js';

export interface StoreProcess {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startRedisServer(cpus?: string): Promise<StoreProcess> {
  const port = await freePort();
  const proc = new ManagedProcess({
    command: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    ...(cpus === undefined ? {} : { cpus }),
  });
  try {
    await proc.waitFor('redis-server ready', (out) => (out.includes('Ready to accept connections') ? true : undefined));
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { port, url: `127.0.0.1:${port}`, stop: () => proc.stop() };
}

/** Resolves once memcached answers `version`. */
function memcachedAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('error', () => resolve(false));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('VERSION'));
    });
    socket.write('version\r\n');
  });
}

export async function startMemcachedServer(cpus?: string): Promise<StoreProcess> {
  const port = await freePort();
  const user = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  const proc = new ManagedProcess({
    command: 'memcached',
    args: ['-p', String(port), '-U', '0', '-l', '127.0.0.1', '-m', '256', ...user],
    ...(cpus === undefined ? {} : { cpus }),
  });
  const deadline = Date.now() + 10_000;
  while (!(await memcachedAnswers(port))) {
    if (!proc.running || Date.now() > deadline) {
      await proc.stop();
      throw new Error(`memcached did not start on port ${port}: ${proc.output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { port, url: `127.0.0.1:${port}`, stop: () => proc.stop() };
}
