import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { SecureVersion } from 'node:tls';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import type { HttpConfig, TlsConfig } from '../config/http-config.js';
import { configPath, readSecretFile } from './config-files.js';
import { NOTIFIER_USER_AGENT, type HttpAnswer, type HttpPost, type HttpSender } from './http-sender.js';

/** Go's http.Client stops after this many redirects. */
const MAX_REDIRECTS = 10;
/** Of an answer's body, only this much is kept: it goes into an error message, never further. */
const ANSWER_BODY_BYTES = 4096;

const TLS_VERSIONS: Readonly<Record<string, SecureVersion>> = { TLS10: 'TLSv1', TLS11: 'TLSv1.1', TLS12: 'TLSv1.2', TLS13: 'TLSv1.3' };

async function secret(inline: string, file: string, baseDir: string): Promise<string> {
  if (file === '') return inline;
  const read = await readSecretFile(baseDir, file);
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

/** The `Authorization` header of `config` (basic auth, authorization, or a bearer token), read afresh per send: files may be rotated. */
async function authorizationHeader(config: HttpConfig, baseDir: string): Promise<string | undefined> {
  if (config.basicAuth !== undefined) {
    const { username, usernameFile, password, passwordFile } = config.basicAuth;
    const user = await secret(username, usernameFile, baseDir);
    const pass = await secret(password, passwordFile, baseDir);
    return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }
  if (config.authorization !== undefined) {
    const credentials = await secret(config.authorization.credentials, config.authorization.credentialsFile, baseDir);
    return `${config.authorization.type} ${credentials}`;
  }
  if (config.bearerToken !== '' || config.bearerTokenFile !== '') return `Bearer ${await secret(config.bearerToken, config.bearerTokenFile, baseDir)}`;
  return undefined;
}

function tlsOptions(tls: TlsConfig, baseDir: string): https.AgentOptions {
  const read = (path: string) => (path === '' ? undefined : readFileSync(configPath(baseDir, path)));
  return {
    ca: read(tls.caFile),
    cert: read(tls.certFile),
    key: read(tls.keyFile),
    servername: tls.serverName === '' ? undefined : tls.serverName,
    rejectUnauthorized: !tls.insecureSkipVerify,
    minVersion: TLS_VERSIONS[tls.minVersion] ?? 'TLSv1.2',
  };
}

/**
 * Connections per receiver host: a thousand groups flushing together share them rather than
 * open a thousand sockets (each send then costs a request, not a connection).
 */
const SOCKETS_PER_HOST = 32;

interface Agents {
  http: http.Agent;
  https: https.Agent;
  /** Given with every TLS request too: a proxy agent takes the target's TLS settings from the request, not from itself. */
  tls: https.AgentOptions;
}

/** Agents for plain and TLS targets, through `proxy_url` when there is one; keep-alive, as Go's transport. */
function agentsFor(config: HttpConfig, baseDir: string): Agents {
  const tls = tlsOptions(config.tls, baseDir);
  if (config.proxyUrl !== '') {
    return {
      http: new HttpProxyAgent(config.proxyUrl, { keepAlive: true, maxSockets: SOCKETS_PER_HOST }),
      https: new HttpsProxyAgent(config.proxyUrl, { keepAlive: true, maxSockets: SOCKETS_PER_HOST }),
      tls,
    };
  }
  return { http: new http.Agent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST }), https: new https.Agent({ ...tls, keepAlive: true, maxSockets: SOCKETS_PER_HOST }), tls };
}

interface Exchange {
  status: number;
  location: string | undefined;
  body: string;
}

function exchange(url: URL, method: string, body: string | undefined, headers: Record<string, string>, agents: Agents, signal: AbortSignal): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const send = secure ? https.request : http.request;
    const options = { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, agent: secure ? agents.https : agents.http, signal, ...(secure ? agents.tls : {}) };
    const request = send(url, options, (response) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (keptBytes >= ANSWER_BODY_BYTES) return;
        kept.push(chunk);
        keptBytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, body: Buffer.concat(kept).subarray(0, ANSWER_BODY_BYTES).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * An `HttpSender` for one integration's `http_config` (Prometheus' HTTPClientConfig): the
 * Authorization it asks for, its TLS settings, its proxy, and Go's redirect rules when
 * `follow_redirects` (307 and 308 repeat the POST; 301, 302 and 303 become a GET).
 * `baseDir` is the configuration file's directory, which relative `*_file` paths start from.
 */
export function createHttpSender(config: HttpConfig, baseDir: string): HttpSender {
  let agents: Agents | undefined;
  return {
    async post(post: HttpPost): Promise<HttpAnswer> {
      // Made at the first send: a CA file that cannot be read fails that send, with its reason, not the load.
      agents ??= agentsFor(config, baseDir);
      const signal = post.timeoutMs !== undefined && post.timeoutMs > 0 ? AbortSignal.any([post.signal, AbortSignal.timeout(post.timeoutMs)]) : post.signal;
      const headers: Record<string, string> = { 'User-Agent': NOTIFIER_USER_AGENT, ...post.headers };
      const authorization = await authorizationHeader(config, baseDir);
      if (authorization !== undefined) headers.Authorization = authorization;
      let url = new URL(post.url);
      let method = 'POST';
      let body: string | undefined = post.body;
      for (let redirects = 0; ; redirects++) {
        const answer = await exchange(url, method, body, headers, agents, signal);
        const redirect = config.followRedirects && answer.location !== undefined && [301, 302, 303, 307, 308].includes(answer.status);
        if (!redirect) return { status: answer.status, body: answer.body };
        if (redirects + 1 >= MAX_REDIRECTS) throw new Error(`Post "${post.url}": stopped after ${MAX_REDIRECTS} redirects`);
        url = new URL(answer.location as string, url);
        if (answer.status !== 307 && answer.status !== 308) {
          method = 'GET';
          body = undefined;
          delete headers['Content-Type'];
        }
      }
    },
  };
}
