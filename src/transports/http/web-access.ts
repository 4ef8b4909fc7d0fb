import type { MessagePort } from 'node:worker_threads';
import { BasicAuth, PasswordCheckClient, type Admission } from './basic-auth/index.js';
import type { HeaderList } from './exchange.js';
import type { ReconfigurableHttpServer, UwsTlsOptions } from './http-server.js';

/** What each HTTP thread serves of the web configuration; plain data, posted to every thread. */
export interface FrontWebConfig {
  /** http_server_config.headers. */
  headers: Array<[string, string]>;
  /** basic_auth_users: user and bcrypt hash. */
  users: Array<[string, string]>;
  /** The thread's own TLS (uWS's SSLApp), or undefined for plain HTTP (maybe behind Node's TLS). */
  tls: UwsTlsOptions | undefined;
}

/**
 * The web configuration on one HTTP thread: the basic auth its Alertmanager routes ask, the
 * headers and TLS its server starts with, and the changes a reloaded file brings.
 */
export class WebAccess {
  private readonly auth: BasicAuth;
  private readonly passwords: PasswordCheckClient;
  private server: ReconfigurableHttpServer | undefined;

  constructor(
    private config: FrontWebConfig,
    /** This thread's port to the password-check thread. */
    passwordPort: MessagePort,
  ) {
    this.passwords = new PasswordCheckClient(passwordPort);
    this.auth = new BasicAuth((hash, password) => this.passwords.check(hash, password));
    this.auth.setUsers(config.users);
  }

  readonly admit = (headers: HeaderList): Admission | Promise<Admission> => this.auth.admit(headers);

  /** TLS and response headers to start the thread's server with. */
  get serverOptions(): { tls: UwsTlsOptions | undefined; responseHeaders: HeaderList } {
    return { tls: this.config.tls, responseHeaders: this.config.headers };
  }

  attach(server: ReconfigurableHttpServer): void {
    this.server = server;
  }

  /** Serves a reloaded configuration; rejects when the new TLS app cannot start (the old one keeps serving). */
  async apply(next: FrontWebConfig): Promise<void> {
    const previous = this.config;
    this.config = next;
    this.auth.setUsers(next.users);
    this.server?.setResponseHeaders(next.headers);
    if (next.tls !== undefined && JSON.stringify(next.tls) !== JSON.stringify(previous.tls)) await this.server?.replaceTls(next.tls);
  }

  close(): void {
    this.passwords.close();
  }
}
