/**
 * Real Redis and memcached servers on free ports, for integration tests of the counter-store
 * backends (ioredis, and the memcached client). Each server runs in the foreground from a fresh temp directory
 * (config file, log, unix socket, cluster state); the tap test given to `start*` gets a
 * teardown that kills the process and removes that directory, even when the test fails.
 *
 *   const redis = await startRedis(t, { password: 'secret' });
 *   await redis.cli('SET', 'k', 'v');
 *   const group = await startSentinelGroup(t, { masterName: 'mymaster' });
 *   const memcached = await startMemcached(t);
 *   const overTls = await startMemcached(t, { tls: { certFile, keyFile } }); // url: TLS; helpers: plain port
 *   await memcached.getWithTtl('k'); // { value, ttl } via the meta protocol
 *
 * Needs redis-server, redis-cli and memcached on PATH (test/ensure-packages.sh installs them).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort, freePorts } from '../../src/transports/free-port.js';
import { describeFailure, runCommand } from './command-runner.js';
import { portForLater, portsForLater } from './port-for-later.js';
import { respCli } from './resp-cli.js';
import { ManagedProcess } from './managed-process.js';
import type { Teardown } from './teardown.js';
import { makeTempDir } from './temp-dir.js';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 50;
/** Time a SIGTERM gets before SIGKILL in teardown. */
const TERMINATE_GRACE_MS = 2000;
/** No single redis-cli call or memcached request may hang a test. */
const COMMAND_TIMEOUT_MS = 10_000;
/** `redis-cli --cluster create`, which waits for the nodes to meet. */
const CLUSTER_CREATE_TIMEOUT_MS = 40_000;

// ---------------------------------------------------------------------------------------------
// Polling, processes

/**
 * Calls `check` until it returns a value; `fatal` ends the wait at once with its reason (e.g.
 * the process exited), so a server that cannot start fails the test without the full timeout.
 */
async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  fatal: () => string | undefined = () => undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const reason = fatal();
    if (reason !== undefined) throw new Error(`${what}: ${reason}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const last = lastError === undefined ? '' : ` (last error: ${(lastError as Error).message ?? String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** One server process that can be killed and started again with the same command line. */
class ServerProcess {
  private run: ManagedProcess | undefined;

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    /** `taskset -c` CPU list; absent: not pinned. */
    private readonly cpus?: string,
  ) {}

  /** Why the current run ended (`exit code 1`, `signal SIGKILL`, spawn error); undefined while running. */
  get exitReason(): string | undefined {
    return this.run === undefined ? 'not started' : this.run.exitReason;
  }

  /** stdout and stderr of the current run (servers log to files, but fatal config errors land here). */
  get output(): string {
    return this.run?.output ?? '';
  }

  get pid(): number | undefined {
    return this.run?.running === true ? this.run.child.pid : undefined;
  }

  start(): void {
    if (this.exitReason === undefined) throw new Error(`${this.command} is already running`);
    this.run = new ManagedProcess({ command: this.command, args: this.args, cpus: this.cpus });
  }

  /** Like a crash: SIGKILL, no chance to flush or hand over. */
  async kill(): Promise<void> {
    if (this.run === undefined) return;
    this.run.kill('SIGKILL');
    await this.run.exited;
  }

  /** For teardown: SIGTERM, then SIGKILL if it lingers. */
  async terminate(): Promise<void> {
    await this.run?.stop(TERMINATE_GRACE_MS);
  }
}

/**
 * Registers the one teardown a server needs: process gone first, then its directory. `graceful`
 * false skips SIGTERM for servers with nothing to shut down cleanly that are slow to honour it.
 */
function cleanUpWith(t: Teardown, proc: ServerProcess, removeDir: (() => Promise<void>) | undefined, graceful = true): void {
  t.teardown(async () => {
    await (graceful ? proc.terminate() : proc.kill());
    await removeDir?.();
  });
}

async function tail(file: string, lines = 40): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// redis-cli

/** How redis-cli reaches a server: connection flags, plus the password in REDISCLI_AUTH (no warning). */
export interface RedisCliTarget {
  flags: string[];
  password?: string;
}

/**
 * Runs redis-cli and returns its stdout, trimmed. `-e` makes error replies (NOAUTH, WRONGPASS,
 * WRONGTYPE...) fail: without it redis-cli prints them to stdout and exits 0, so a test could
 * not tell an error from a value. Rejects with redis-cli's stderr.
 */
export async function redisCli(target: RedisCliTarget, args: readonly string[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['REDISCLI_AUTH'];
  if (target.password !== undefined) env['REDISCLI_AUTH'] = target.password;
  const result = await runCommand('redis-cli', ['-e', ...target.flags, ...args], { env, timeoutMs });
  if (result.code === 0) return result.stdout.trim();
  throw new Error(`redis-cli ${[...target.flags, ...args].join(' ')}: ${describeFailure(result, timeoutMs)}`);
}

/** `key:value` lines of INFO or CLUSTER INFO; section headers and blank lines dropped. */
export function parseInfo(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return fields;
}

/** Adds the end of each server's log to a failure, so a group that never settles can be diagnosed. */
async function withLogs<T>(work: Promise<T>, servers: readonly RedisServer[]): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const logs = await Promise.all(servers.map(async (server) => `--- ${server.logFile}:\n${await tail(server.logFile, 20)}`));
    throw new Error(`${(error as Error).message}\n${logs.join('\n')}`);
  }
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line !== '');
}

// ---------------------------------------------------------------------------------------------
// Redis

export interface RedisTlsOptions {
  certFile: string;
  keyFile: string;
  /** CA for both sides: what redis-cli verifies the server with, and what the server verifies client certificates with. */
  caFile: string;
  /** Default 'no' (Redis' own default is 'yes'), so a client needs only the CA unless a test asks for mTLS. */
  authClients?: 'yes' | 'no' | 'optional';
  /** The certificate redis-cli presents (needed with authClients 'yes'). */
  clientCertFile?: string;
  clientKeyFile?: string;
}

export interface RedisOptions {
  /** Also listen on `<dir>/redis.sock` (permissions 700). */
  unixSocket?: boolean;
  /** `requirepass`: the default user's password. */
  password?: string;
  /**
   * An ACL user with full access. Without `password`, the default user is switched off, so
   * every client must AUTH as this user; with `password`, the default user keeps it.
   * redis-cli (`cli`) authenticates as this user.
   */
  aclUser?: { user: string; password: string };
  /** TLS only: the plain port is closed (`port 0`) and `port` is the TLS port. */
  tls?: RedisTlsOptions;
  /** Extra command line options after the config file: `['--maxmemory', '10mb']`. */
  args?: string[];
  replicaOf?: { host: string; port: number };
  /** Listen on this port (e.g. one chosen with portForLater() before a client starts); default a free one. */
  port?: number;
  /** `taskset -c` CPU list for the server (benchmarks keep it off the service's CPU); absent: not pinned. */
  cpus?: string;
}

/** A config value in Redis' quoting (sdssplitargs accepts these escapes). */
function quote(value: string): string {
  return JSON.stringify(value);
}

function redisConfig(dir: string, port: number, options: RedisOptions): string[] {
  const config = [
    `port ${options.tls === undefined ? port : 0}`,
    `bind ${HOST}`,
    'daemonize no',
    'save ""',
    'appendonly no',
    `dir ${quote(dir)}`,
    `logfile ${quote(join(dir, 'redis.log'))}`,
    // A replica's first sync would otherwise wait 5 s for more replicas to share it.
    'repl-diskless-sync-delay 0',
  ];
  if (options.unixSocket === true) config.push(`unixsocket ${quote(join(dir, 'redis.sock'))}`, 'unixsocketperm 700');
  if (options.password !== undefined) config.push(`requirepass ${quote(options.password)}`);
  if (options.aclUser !== undefined) {
    if (options.password === undefined) config.push('user default off');
    config.push(`user ${quote(options.aclUser.user)} on ${quote(`>${options.aclUser.password}`)} ~* &* +@all`);
  }
  const tls = options.tls;
  if (tls !== undefined) {
    config.push(
      `tls-port ${port}`,
      `tls-cert-file ${quote(tls.certFile)}`,
      `tls-key-file ${quote(tls.keyFile)}`,
      `tls-ca-cert-file ${quote(tls.caFile)}`,
      `tls-auth-clients ${tls.authClients ?? 'no'}`,
    );
  }
  if (options.replicaOf !== undefined) config.push(`replicaof ${options.replicaOf.host} ${options.replicaOf.port}`);
  return config;
}

/** redis-cli flags that reach the server over TCP (with TLS when configured). */
function tcpFlags(port: number, tls: RedisTlsOptions | undefined): string[] {
  const flags = ['-h', HOST, '-p', String(port)];
  if (tls !== undefined) {
    flags.push('--tls', '--cacert', tls.caFile);
    if (tls.clientCertFile !== undefined) flags.push('--cert', tls.clientCertFile);
    if (tls.clientKeyFile !== undefined) flags.push('--key', tls.clientKeyFile);
  }
  return flags;
}

/** The credentials redis-cli logs in with: the ACL user if there is one, else the default user's password. */
function credentials(options: RedisOptions): RedisCliTarget {
  if (options.aclUser !== undefined) return { flags: ['--user', options.aclUser.user], password: options.aclUser.password };
  if (options.password !== undefined) return { flags: [], password: options.password };
  return { flags: [] };
}

/** A redis-server (plain, replica, cluster node or sentinel) run by the test. */
export class RedisServer {
  readonly host = HOST;

  constructor(
    readonly port: number,
    /** The temp directory: config file, log, socket, cluster state. */
    readonly dir: string,
    /** The config file the server was started with (a sentinel rewrites it). */
    readonly configFile: string,
    readonly logFile: string,
    /** Set with the `unixSocket` option. */
    readonly socketPath: string | undefined,
    private readonly connectFlags: string[],
    private readonly auth: RedisCliTarget,
    private readonly process: ServerProcess,
  ) {}

  /** `127.0.0.1:<port>`, the form the store settings take. */
  get url(): string {
    return `${HOST}:${this.port}`;
  }

  /** Undefined while stopped. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.process.exitReason === undefined;
  }

  /** redis-cli over TCP (TLS and credentials as configured): `await server.cli('GET', 'k')`. */
  cli(...args: string[]): Promise<string> {
    return this.cliWithin(COMMAND_TIMEOUT_MS, ...args);
  }

  /**
   * The same, for a command that may take longer than a single request (`--cluster create`).
   * Commands are answered as redis-cli answers them, without starting it (test/support/resp-cli.ts);
   * `--cluster` runs redis-cli itself.
   */
  cliWithin(timeoutMs: number, ...args: string[]): Promise<string> {
    const flags = [...this.connectFlags, ...this.auth.flags];
    if (args[0] === '--cluster') return redisCli({ ...this.auth, flags }, args, timeoutMs);
    return respCli(flags, this.auth.password, args, timeoutMs);
  }

  /** redis-cli over the unix socket (plain even with TLS, as Redis serves it). */
  cliOverSocket(...args: string[]): Promise<string> {
    if (this.socketPath === undefined) throw new Error('started without unixSocket');
    return respCli(['-s', this.socketPath, ...this.auth.flags], this.auth.password, args, COMMAND_TIMEOUT_MS);
  }

  /** Keys matching `pattern`, found with SCAN (sorted, so tests can compare lists). */
  async keys(pattern = '*'): Promise<string[]> {
    return lines(await this.cli('--scan', '--pattern', pattern)).sort();
  }

  async info(section = 'default'): Promise<Record<string, string>> {
    return parseInfo(await this.cli('INFO', section));
  }

  /** Kills the server with SIGKILL, as a crash would (no persistence: its data is gone). */
  stop(): Promise<void> {
    return this.process.kill();
  }

  /** Starts it again on the same port with the same config, and waits until it answers PING. */
  async restart(): Promise<void> {
    this.process.start();
    await this.waitUntilReady();
  }

  /** Resolves once PING answers; rejects with the server's output and log if it exits or times out. */
  async waitUntilReady(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    try {
      await pollUntil(
        `redis-server on port ${this.port} to answer PING`,
        async () => ((await this.cli('PING')) === 'PONG' ? true : undefined),
        timeoutMs,
        () => (this.process.exitReason === undefined ? undefined : `exited (${this.process.exitReason})`),
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- output:\n${this.process.output}\n--- ${this.logFile}:\n${await tail(this.logFile)}`);
    }
  }
}

interface RedisLaunch {
  prefix: string;
  port: number;
  config: (dir: string) => string[];
  /** Command line options after the config file. */
  args: string[];
  connectFlags: string[];
  auth: RedisCliTarget;
  socket: boolean;
  logName: string;
  cpus?: string;
}

async function launchRedis(t: Teardown, launch: RedisLaunch): Promise<RedisServer> {
  const temp = await makeTempDir(launch.prefix);
  const dir = temp.path;
  const configFile = join(dir, 'redis.conf');
  const proc = new ServerProcess('redis-server', [configFile, ...launch.args], launch.cpus);
  cleanUpWith(t, proc, temp.remove);
  await writeFile(configFile, `${launch.config(dir).join('\n')}\n`);
  const server = new RedisServer(
    launch.port,
    dir,
    configFile,
    join(dir, launch.logName),
    launch.socket ? join(dir, 'redis.sock') : undefined,
    launch.connectFlags,
    launch.auth,
    proc,
  );
  proc.start();
  await server.waitUntilReady();
  return server;
}

/** A redis-server on a free port (outside the ephemeral range: tests restart it there), ready for commands. */
export async function startRedis(t: Teardown, options: RedisOptions = {}): Promise<RedisServer> {
  return startRedisOnPort(t, options.port ?? (await portForLater()), options);
}

async function startRedisOnPort(t: Teardown, port: number, options: RedisOptions, prefix = 'rl-redis-'): Promise<RedisServer> {
  return launchRedis(t, {
    prefix,
    port,
    config: (dir) => redisConfig(dir, port, options),
    args: options.args ?? [],
    connectFlags: tcpFlags(port, options.tls),
    auth: credentials(options),
    socket: options.unixSocket === true,
    logName: 'redis.log',
    cpus: options.cpus,
  });
}

// ---------------------------------------------------------------------------------------------
// Sentinel

export interface SentinelGroup {
  masterName: string;
  master: RedisServer;
  replica: RedisServer;
  sentinels: RedisServer[];
  /** `<masterName>,127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`, the form the store settings take. */
  sentinelUrl: string;
  /** The master port a running sentinel reports (SENTINEL get-master-addr-by-name). */
  currentMasterPort(): Promise<number>;
  /** Resolves with the new master's port once the sentinels report one other than `fromPort`. */
  waitForFailover(fromPort: number, timeoutMs?: number): Promise<number>;
}

const SENTINEL_QUORUM = 2;

/**
 * A master, one replica and three sentinels (quorum 2) watching them with short timeouts
 * (down after 1 s, failover timeout 5 s), so a test can kill the master and see a failover
 * within seconds. Resolves once every sentinel knows the replica and the two other sentinels:
 * before that, a failover could not happen.
 */
export async function startSentinelGroup(t: Teardown, { masterName }: { masterName: string }): Promise<SentinelGroup> {
  const [masterPort, replicaPort, ...sentinelPorts] = (await freePorts(5)) as [number, number, number, number, number];
  const master = await startRedisOnPort(t, masterPort, {});
  const replica = await startRedisOnPort(t, replicaPort, { replicaOf: { host: HOST, port: masterPort } });
  // Sentinels find replicas in the master's INFO, which they read once on connecting and then
  // every 10 s: a replica that is linked before they start is seen at once.
  await withLogs(
    pollUntil(
      'the replica to link to the master',
      async () => ((await replica.info('replication'))['master_link_status'] === 'up' ? true : undefined),
      READY_TIMEOUT_MS,
    ),
    [master, replica],
  );
  const sentinels = await Promise.all(sentinelPorts.map((port) => startSentinel(t, port, masterName, masterPort)));
  await withLogs(
    pollUntil(
      'every sentinel to know the replica and the other sentinels',
      async () => {
        for (const sentinel of sentinels) {
          const view = await sentinelView(sentinel, masterName);
          if (view.replicas < 1 || view.otherSentinels < sentinels.length - 1) return undefined;
        }
        return true;
      },
      15_000,
    ),
    sentinels,
  );

  const currentMasterPort = async (): Promise<number> => {
    let lastError: unknown = new Error('no sentinel is running');
    for (const sentinel of sentinels.filter((s) => s.running)) {
      try {
        const [, port] = lines(await sentinel.cli('SENTINEL', 'get-master-addr-by-name', masterName));
        if (port !== undefined) return Number(port);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };

  return {
    masterName,
    master,
    replica,
    sentinels,
    sentinelUrl: [masterName, ...sentinels.map((s) => s.url)].join(','),
    currentMasterPort,
    waitForFailover: (fromPort, timeoutMs = 30_000) =>
      pollUntil(
        `a sentinel failover away from port ${fromPort}`,
        async () => {
          const port = await currentMasterPort();
          return port === fromPort ? undefined : port;
        },
        timeoutMs,
      ),
  };
}

/** One sentinel; its config file lives in its own temp dir because the sentinel rewrites it. */
export async function startSentinel(t: Teardown, port: number, masterName: string, masterPort: number): Promise<RedisServer> {
  return launchRedis(t, {
    prefix: 'rl-sentinel-',
    port,
    config: (dir) => [
      `port ${port}`,
      `bind ${HOST}`,
      'daemonize no',
      `dir ${quote(dir)}`,
      `logfile ${quote(join(dir, 'sentinel.log'))}`,
      `sentinel monitor ${masterName} ${HOST} ${masterPort} ${SENTINEL_QUORUM}`,
      `sentinel down-after-milliseconds ${masterName} 1000`,
      `sentinel failover-timeout ${masterName} 5000`,
      `sentinel parallel-syncs ${masterName} 1`,
    ],
    args: ['--sentinel'],
    connectFlags: tcpFlags(port, undefined),
    auth: { flags: [] },
    socket: false,
    logName: 'sentinel.log',
  });
}

/** What a sentinel knows about a master, from SENTINEL master (a flat name/value list). */
async function sentinelView(sentinel: RedisServer, masterName: string): Promise<{ replicas: number; otherSentinels: number }> {
  const list = lines(await sentinel.cli('SENTINEL', 'master', masterName));
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < list.length; i += 2) fields.set(list[i] as string, list[i + 1] as string);
  return { replicas: Number(fields.get('num-slaves') ?? 0), otherSentinels: Number(fields.get('num-other-sentinels') ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// Cluster

export interface RedisCluster {
  nodes: RedisServer[];
  /** `127.0.0.1:p1,127.0.0.1:p2,...`, the form the store settings take. */
  url: string;
  /** redis-cli in cluster mode (`-c`, follows MOVED) against the first node. */
  cli(...args: string[]): Promise<string>;
  /** Keys matching `pattern` on every node, sorted. */
  keys(pattern?: string): Promise<string[]>;
}

/**
 * `masters` cluster nodes (at least 3, as redis-cli requires) with no replicas, all slots
 * assigned; resolves once every node reports `cluster_state:ok`. The cluster bus ports are
 * chosen free too (the default, port + 10000, can be taken or beyond 65535).
 */
export async function startRedisCluster(t: Teardown, { masters = 3 }: { masters?: number } = {}): Promise<RedisCluster> {
  if (masters < 3) throw new Error('redis-cli --cluster create needs at least 3 masters');
  const ports = await freePorts(masters * 2);
  const nodes = await Promise.all(
    ports.slice(0, masters).map((port, i) =>
      startRedisOnPort(
        t,
        port,
        {
          args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000', '--cluster-port', String(ports[masters + i])],
        },
        'rl-redis-cluster-',
      ),
    ),
  );
  const first = nodes[0] as RedisServer;
  const createAndSettle = async () => {
    // redis-cli waits, a second at a time, until every node has met the others over the cluster
    // bus; on a busy host that has taken longer than a single command's 10 s.
    await first.cliWithin(CLUSTER_CREATE_TIMEOUT_MS, '--cluster', 'create', ...nodes.map((node) => node.url), '--cluster-replicas', '0', '--cluster-yes');
    await pollUntil(
      'cluster_state:ok on every node',
      async () => {
        const states = await Promise.all(nodes.map(async (node) => parseInfo(await node.cli('CLUSTER', 'INFO'))['cluster_state']));
        return states.every((state) => state === 'ok') ? true : undefined;
      },
      20_000,
    );
  };
  await withLogs(createAndSettle(), nodes);
  return {
    nodes,
    url: nodes.map((node) => node.url).join(','),
    cli: (...args) => first.cli('-c', ...args),
    keys: async (pattern = '*') => (await Promise.all(nodes.map((node) => node.keys(pattern)))).flat().sort(),
  };
}

// ---------------------------------------------------------------------------------------------
// memcached

/** memcached's TLS (`-Z`): the service's port speaks TLS; a second, plain port is for looking inside. */
export interface MemcachedTlsOptions {
  certFile: string;
  keyFile: string;
  /** Demand a client certificate signed by this CA (`ssl_verify_mode=2`); absent: none is asked for. */
  clientCaFile?: string;
}

export interface MemcachedOptions {
  tls?: MemcachedTlsOptions;
  /** Extra memcached options: `['-I', '2m']`. */
  args?: string[];
  /** Item memory (`-m`), in megabytes; default 64. */
  memoryMb?: number;
  /** `taskset -c` CPU list for the server (benchmarks keep it off the service's CPU); absent: not pinned. */
  cpus?: string;
}

/** A value as memcached's meta get reports it; `ttl` is the remaining seconds, -1 for none. */
export interface MemcachedItem {
  value: string;
  ttl: number;
}

/** A memcached run by the test, with a small text-protocol client for looking inside it. */
export class MemcachedServer {
  readonly host = HOST;

  constructor(
    readonly port: number,
    private readonly process: ServerProcess,
    /** Where `request` and the helpers on it connect: `port`, or memcached's plain port beside a TLS one. */
    readonly plainPort = port,
  ) {}

  /** `127.0.0.1:<port>`, the form the store settings take. */
  get url(): string {
    return `${HOST}:${this.port}`;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.process.exitReason === undefined;
  }

  /**
   * Sends raw protocol text and returns the whole answer. A meta no-op (`mn`) is pipelined
   * after it, so the answer is complete when `MN` arrives, whatever the command was.
   */
  request(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: HOST, port: this.plainPort });
      let answer = Buffer.alloc(0);
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      socket.setTimeout(COMMAND_TIMEOUT_MS, () => fail(new Error(`memcached on port ${this.port} did not answer ${JSON.stringify(text)}`)));
      socket.once('error', fail);
      socket.on('data', (chunk: Buffer) => {
        answer = Buffer.concat([answer, chunk]);
        if (answer.subarray(-4).toString('latin1') === 'MN\r\n') {
          socket.end();
          resolve(answer.subarray(0, -4).toString('utf8'));
        }
      });
      socket.once('close', () => reject(new Error(`memcached on port ${this.port} closed the connection; got ${JSON.stringify(answer.toString('utf8'))}`)));
      socket.write(`${text}mn\r\n`);
    });
  }

  /** The value and remaining TTL (meta protocol `mg <key> v t`), or undefined if absent. */
  async getWithTtl(key: string): Promise<MemcachedItem | undefined> {
    const answer = await this.request(`mg ${key} v t\r\n`);
    if (answer === 'EN\r\n') return undefined;
    const m = /^VA (\d+)((?: \S+)*)\r\n/.exec(answer);
    if (m === null) throw new Error(`unexpected answer to mg ${key}: ${JSON.stringify(answer)}`);
    const body = Buffer.from(answer.slice(m[0].length), 'utf8').subarray(0, Number(m[1]));
    const ttlFlag = (m[2] as string).split(' ').find((flag) => flag.startsWith('t'));
    return { value: body.toString('utf8'), ttl: Number(ttlFlag?.slice(1) ?? NaN) };
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.getWithTtl(key))?.value;
  }

  /** Stores a value the classic way (`set`), e.g. to seed a counter; ttlSeconds 0 never expires. */
  async set(key: string, value: string, ttlSeconds = 0): Promise<void> {
    const answer = await this.request(`set ${key} 0 ${ttlSeconds} ${Buffer.byteLength(value)}\r\n${value}\r\n`);
    if (answer !== 'STORED\r\n') throw new Error(`set ${key}: ${JSON.stringify(answer)}`);
  }

  /** `stats` (or `stats <group>`, e.g. 'settings') as name/value pairs. */
  async stats(group?: string): Promise<Record<string, string>> {
    const answer = await this.request(group === undefined ? 'stats\r\n' : `stats ${group}\r\n`);
    const stats: Record<string, string> = {};
    for (const line of lines(answer)) {
      const m = /^STAT (\S+) (.*)$/.exec(line);
      if (m !== null) stats[m[1] as string] = m[2] as string;
    }
    return stats;
  }

  async version(): Promise<string> {
    const answer = await this.request('version\r\n');
    const m = /^VERSION (\S+)/.exec(answer);
    if (m === null) throw new Error(`unexpected answer to version: ${JSON.stringify(answer)}`);
    return m[1] as string;
  }

  /** Kills memcached with SIGKILL, as a crash would (every item is gone). */
  stop(): Promise<void> {
    return this.process.kill();
  }

  /** Starts it again, empty, on the same port, and waits until it answers. */
  async restart(): Promise<void> {
    this.process.start();
    await this.waitUntilReady();
  }

  async waitUntilReady(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    try {
      await pollUntil(`memcached on port ${this.port} to answer version`, () => this.version(), timeoutMs, () =>
        this.process.exitReason === undefined ? undefined : `exited (${this.process.exitReason})`,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- output:\n${this.process.output}`);
    }
  }
}

/**
 * memcached on a free port (outside the ephemeral range: tests restart it there): TCP on 127.0.0.1 only, no UDP, 64 MB unless `memoryMb` says
 * otherwise. With `tls`, that port speaks TLS and another free one stays plain (`plainPort`),
 * where the test's own helpers look inside.
 */
export async function startMemcached(t: Teardown, options: MemcachedOptions = {}): Promise<MemcachedServer> {
  const [port, plainPort] = options.tls === undefined ? [await portForLater()] : await portsForLater(2);
  // memcached refuses to run as root unless told which user to be.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  const memory = String(options.memoryMb ?? 64);
  const listen = options.tls === undefined ? ['-l', HOST] : ['-l', `${HOST}:${port},notls:${HOST}:${plainPort}`, ...memcachedTlsArgs(options.tls)];
  const proc = new ServerProcess('memcached', ['-p', String(port), '-U', '0', ...listen, '-m', memory, ...asRoot, ...(options.args ?? [])], options.cpus);
  // No temp dir (memcached keeps nothing on disk); SIGTERM would cost up to 1 s per server, as
  // memcached only notices it on its once-a-second clock tick.
  cleanUpWith(t, proc, undefined, false);
  const server = new MemcachedServer(port as number, proc, plainPort);
  proc.start();
  await server.waitUntilReady();
  return server;
}

function memcachedTlsArgs(tls: MemcachedTlsOptions): string[] {
  const options = [`ssl_chain_cert=${tls.certFile}`, `ssl_key=${tls.keyFile}`];
  if (tls.clientCaFile !== undefined) options.push(`ssl_ca_cert=${tls.clientCaFile}`, 'ssl_verify_mode=2');
  return ['-Z', '-o', options.join(',')];
}
