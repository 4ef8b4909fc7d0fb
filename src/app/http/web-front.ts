import { readFileSync } from 'node:fs';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';
import { freePort } from '../../transports/free-port.js';
import { startTlsTerminator, WebAccess, type FrontWebConfig, type HttpServer, type TlsTerminator } from '../../transports/http/index.js';
import {
  nodeTlsPlan,
  tlsEngineFor,
  UwsTlsFiles,
  WebConfigWatcher,
  type LoadedWebConfig,
  type WebConfig,
} from '../../transports/http/web-config/index.js';
import { threadEntryFile } from '../thread-entries.js';

const PASSWORD_THREAD_FILE = threadEntryFile('passwordCheck');

/** Main thread -> password-check thread: the port one HTTP thread asks on. */
export interface PasswordThreadMessage {
  type: 'front';
  port: MessagePort;
}

/** One HTTP thread's share of the web configuration: posted in its workerData. */
export interface WebFrontSetup {
  config: FrontWebConfig;
  passwordPort: MessagePort;
}

/** Who terminates TLS on the HTTP port, if anyone. */
type Engine = 'plain' | 'uws' | 'node';

function engineOf(config: WebConfig): Engine {
  return config.tls === undefined ? 'plain' : tlsEngineFor(config.tls).kind;
}

/**
 * Whether Linux moves the connections queued on a listening socket that closes to another socket
 * of its SO_REUSEPORT group (net.ipv4.tcp_migrate_req, Linux 5.14), as a TLS reload on uWS
 * closes each HTTP thread's old socket.
 */
function migratesQueuedConnections(): boolean {
  try {
    return readFileSync('/proc/sys/net/ipv4/tcp_migrate_req', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

function sameTls(a: LoadedWebConfig, b: LoadedWebConfig): boolean {
  const bytes = (x: Buffer | undefined, y: Buffer | undefined) => (x === undefined || y === undefined ? x === y : x.equals(y));
  return (
    JSON.stringify(a.config.tls) === JSON.stringify(b.config.tls) &&
    bytes(a.material?.cert, b.material?.cert) &&
    bytes(a.material?.key, b.material?.key) &&
    bytes(a.material?.ca, b.material?.ca)
  );
}

/**
 * WEB_CONFIG_FILE on the main thread: loads and watches it, writes the TLS files the HTTP
 * threads' uWS apps load, runs the password-check thread, tells every HTTP thread what changed,
 * and, for what uWS's TLS cannot do, serves TLS itself in front of them.
 */
export class WebFront {
  private loaded: LoadedWebConfig;
  private frontConfig: FrontWebConfig;
  private readonly engine: Engine;
  private readonly watcher: WebConfigWatcher;
  private readonly tlsFiles: UwsTlsFiles | undefined;
  private readonly passwordThread: Worker;
  private readonly listeners: Array<(config: FrontWebConfig) => void> = [];
  private readonly accesses: WebAccess[] = [];
  private terminator: TlsTerminator | undefined;
  /** Where the HTTP threads listen when Node's TLS is in front of them. */
  private behindTls: { host: string; port: number } | undefined;

  /** Throws, naming the file and the fields at fault, when the file does not load. */
  constructor(
    private readonly settings: Settings,
    private readonly logger: Logger,
  ) {
    this.watcher = new WebConfigWatcher({
      file: settings.webConfigFile,
      pollIntervalMs: settings.webConfigReloadIntervalMs,
      onChange: (loaded) => this.reload(loaded),
      onRejected: (message) => logger.error('web configuration not reloaded; the previous one stays', { error: message }),
    });
    this.loaded = this.watcher.current;
    this.engine = engineOf(this.loaded.config);
    const tls = this.loaded.config.tls;
    this.tlsFiles = this.engine === 'uws' ? new UwsTlsFiles() : undefined;
    this.frontConfig = {
      headers: this.loaded.config.headers,
      users: this.loaded.config.users,
      tls: this.tlsFiles !== undefined && tls !== undefined && this.loaded.material !== undefined ? this.tlsFiles.write(tls, this.loaded.material) : undefined,
    };
    this.passwordThread = new Worker(PASSWORD_THREAD_FILE, { workerData: { nice: settings.apiThreadNice } });
    this.passwordThread.unref();
    this.passwordThread.on('error', (error) => logger.error('password-check thread failed', { error: String(error) }));
    const described = tls === undefined ? 'off' : this.engine === 'uws' ? 'on every HTTP thread' : `on the main thread (${(tlsEngineFor(tls) as { why: string }).why})`;
    logger.info('web configuration loaded', {
      file: settings.webConfigFile,
      tls: described,
      users: this.loaded.config.users.length,
      ...(this.tlsFiles === undefined ? {} : { tlsFiles: this.tlsFiles.dir }),
    });
    if (this.engine === 'uws' && !migratesQueuedConnections()) {
      logger.info('net.ipv4.tcp_migrate_req is 0: a connection arriving just as a rotated certificate takes over may be reset (set it to 1 to move it instead)');
    }
  }

  /** The settings the HTTP threads listen with: PORT itself, or a loopback port behind Node's TLS. */
  async frontSettings(): Promise<Settings> {
    if (this.engine !== 'node') return this.settings;
    this.behindTls ??= { host: '127.0.0.1', port: await freePort('127.0.0.1') };
    return { ...this.settings, ...this.behindTls };
  }

  /** A new HTTP worker thread's share; its later changes come through `onChange`. */
  setupForFront(): WebFrontSetup {
    return { config: this.frontConfig, passwordPort: this.passwordPort() };
  }

  onChange(listener: (config: FrontWebConfig) => void): void {
    this.listeners.push(listener);
  }

  /** The web configuration of the main thread's own HTTP server (HTTP_WORKERS=0). */
  accessForMainThread(): WebAccess {
    const access = new WebAccess(this.frontConfig, this.passwordPort());
    this.accesses.push(access);
    this.onChange((config) => {
      access.apply(config).catch((error: unknown) => this.logger.error('HTTP server kept its TLS certificate', { error: String(error) }));
    });
    return access;
  }

  /** After the HTTP threads listen: the server as clients reach it, TLS in front when Node serves it. */
  async expose(fronts: HttpServer): Promise<HttpServer> {
    const tls = this.loaded.config.tls;
    let terminator: TlsTerminator | undefined;
    if (this.engine === 'node' && tls !== undefined && this.loaded.material !== undefined && this.behindTls !== undefined) {
      terminator = await startTlsTerminator({
        host: this.settings.host,
        port: this.settings.port,
        target: this.behindTls,
        plan: nodeTlsPlan(tls, this.loaded.material),
        onRefused: (reason) => this.logger.info('HTTPS connection refused after its handshake', { reason }),
      });
      this.terminator = terminator;
    }
    let closing: Promise<void> | undefined;
    return {
      port: terminator?.port ?? fronts.port,
      close: (drainMs = 10_000) => {
        closing ??= (async () => {
          await Promise.all([terminator?.close(drainMs), fronts.close(drainMs)]);
          this.close();
        })();
        return closing;
      },
    };
  }

  private passwordPort(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    const message: PasswordThreadMessage = { type: 'front', port: port2 };
    this.passwordThread.postMessage(message, [port2]);
    return port1;
  }

  private reload(loaded: LoadedWebConfig): void {
    const engine = engineOf(loaded.config);
    if (engine !== this.engine) {
      this.logger.error('web configuration not reloaded: turning TLS on or off, or to or from what only Node serves, needs a restart', {
        file: this.settings.webConfigFile,
        from: this.engine,
        to: engine,
      });
      return;
    }
    let tls = this.frontConfig.tls;
    if (!sameTls(loaded, this.loaded) && loaded.config.tls !== undefined && loaded.material !== undefined) {
      if (this.engine === 'uws') tls = this.tlsFiles?.write(loaded.config.tls, loaded.material);
      else {
        try {
          this.terminator?.update(nodeTlsPlan(loaded.config.tls, loaded.material));
        } catch (error) {
          this.logger.error('web configuration not reloaded; the previous one stays', { error: String(error) });
          return;
        }
      }
    }
    this.loaded = loaded;
    this.frontConfig = { headers: loaded.config.headers, users: loaded.config.users, tls };
    for (const listener of this.listeners) listener(this.frontConfig);
    this.logger.info('web configuration reloaded', { file: this.settings.webConfigFile, users: loaded.config.users.length });
  }

  close(): void {
    this.watcher.close();
    for (const access of this.accesses) access.close();
    void this.passwordThread.terminate();
    this.tlsFiles?.close();
  }
}

/**
 * The HTTP port as WEB_CONFIG_FILE has it: `startFronts` starts the HTTP threads (or the main
 * thread's server) with the settings they listen with and the web front they serve; the server
 * returned is the one clients reach, and closing it closes everything the file started.
 */
export async function startHttpPort(
  settings: Settings,
  logger: Logger,
  startFronts: (frontSettings: Settings, web: WebFront | undefined) => Promise<HttpServer>,
): Promise<HttpServer> {
  if (settings.webConfigFile === '') return startFronts(settings, undefined);
  const web = new WebFront(settings, logger);
  let fronts: HttpServer | undefined;
  try {
    fronts = await startFronts(await web.frontSettings(), web);
    return await web.expose(fronts);
  } catch (error) {
    await fronts?.close(0);
    web.close();
    throw error;
  }
}
