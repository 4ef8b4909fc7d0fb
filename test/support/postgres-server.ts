/**
 * A real PostgreSQL server (Debian's `postgresql` package) on a free port, from a fresh cluster in
 * a temp directory, for the score API's PostgreSQL store. PostgreSQL refuses to run as root, so
 * as root (CI) the cluster belongs to, and the server runs as, the `postgres` user the package
 * creates.
 *
 * One server serves a whole test file (a cluster costs seconds to make); each caller gets a
 * database of its own on it, as fresh as a new server's. The server stops and its directory goes
 * when the test file ends.
 *
 *   const pg = await startPostgres(t);   // pg.url: postgres://test@127.0.0.1:PORT/db_1
 */
import { execFile } from 'node:child_process';
import { chown, readdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../src/transports/free-port.js';
import { ManagedProcess } from './managed-process.js';
import type { Teardown } from './teardown.js';
import { makeTempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface PostgresServer {
  url: string;
}

/** The newest server binaries installed: /usr/lib/postgresql/<version>/bin. */
async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  if (versions[0] === undefined) throw new Error('PostgreSQL is not installed (Debian package postgresql)');
  return join('/usr/lib/postgresql', versions[0], 'bin');
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}

let shared: Promise<string> | undefined;
let databases = 0;

/** A fresh, empty database on this test file's server (started on first use). */
export async function startPostgres(): Promise<PostgresServer> {
  shared ??= startServer();
  const serverUrl = await shared;
  const name = `db_${++databases}`;
  // Left in place: the whole cluster goes with the test file, and the service may still be closing.
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return { url: serverUrl.replace(/\/postgres$/, `/${name}`) };
}

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Makes a cluster, starts its server and answers its URL; all of it goes when the test file ends. */
async function startServer(): Promise<string> {
  // Imported here, not at the top: benchmarks import this module's neighbours, and loading tap arms its test timeout.
  const { default: tap } = await import('tap');
  const bin = await binDir();
  const dir = await makeTempDir('pg-');
  tap.teardown(() => dir.remove());
  const asRoot = userInfo().uid === 0;
  // As root: every command runs as the postgres user, who must own the directory.
  const as = (command: string, args: string[]) => (asRoot ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { command, args });
  if (asRoot) {
    const owner = await postgresUser();
    await chown(dir.path, owner.uid, owner.gid);
  }
  const data = join(dir.path, 'data');
  const init = as(join(bin, 'initdb'), ['-D', data, '-U', 'test', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  await run(init.command, init.args);
  const port = await freePort();
  const server = as(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir.path, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off']);
  const proc = new ManagedProcess({ command: server.command, args: server.args });
  tap.teardown(() => proc.stop());
  await proc.waitFor('PostgreSQL accepting connections', (output) => (/ready to accept connections/.test(output) ? true : undefined), 30_000);
  const url = `postgres://test@127.0.0.1:${port}/postgres`;
  await withClient(url, () => Promise.resolve());
  return url;
}
