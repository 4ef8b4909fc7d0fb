/**
 * test/support/python/ads_server.py (an ADS server on gRPC C-core, Debian's python3-grpcio) as
 * the tests drive the grpc-js one (test/support/ads-server.ts): push sets, read what the client
 * sent. A second, independent implementation of the server side of xDS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { AdsServerLike, ReceivedRequest } from '../ads-server.js';
import { PYTHON, pythonScript } from './python-client.js';

export class PythonAdsServer implements AdsServerLike {
  readonly requests: ReceivedRequest[] = [];
  port = 0;
  private child: ChildProcess | undefined;
  private waiters: Array<() => void> = [];

  async listen(port = 0): Promise<number> {
    const child = spawn(PYTHON, [pythonScript('ads_server.py'), String(port)], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    this.child = child;
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    this.port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`ads_server.py exited with ${code} before listening`)));
      lines.on('line', (line) => {
        const message = JSON.parse(line) as { port?: number } & ReceivedRequest;
        if (message.port !== undefined) return resolve(message.port);
        this.requests.push(message);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    return this.port;
  }

  push(version: string, configs: Array<Record<string, unknown>>): void {
    this.child?.stdin?.write(`${JSON.stringify({ version, configs })}\n`);
  }

  async requestCount(count: number): Promise<ReceivedRequest[]> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.requests;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
