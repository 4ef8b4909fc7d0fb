import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { isNull } from './decode-context.js';
import { lit, map, str, type YamlOut } from './yaml-emit.js';
import { checkUrl } from './url.js';
import { maskedPassThrough, SECRET } from './pass-through.js';

/**
 * An integration's `http_config` (Prometheus' common HTTPClientConfig): what Alertmanager
 * accepts, its checks, and what `config.original` prints (the fields Alertmanager 0.25's
 * client library knew; newer ones are accepted and left out).
 */
export interface HttpConfig {
  basicAuth: { username: string; usernameFile: string; password: string; passwordFile: string } | undefined;
  authorization: { type: string; credentials: string; credentialsFile: string } | undefined;
  oauth2: YamlNode | undefined;
  bearerToken: string;
  bearerTokenFile: string;
  proxyUrl: string;
  tls: TlsConfig;
  followRedirects: boolean;
  enableHttp2: boolean;
}

export interface TlsConfig {
  caFile: string;
  certFile: string;
  keyFile: string;
  serverName: string;
  insecureSkipVerify: boolean;
  minVersion: string;
}

export function defaultTlsConfig(): TlsConfig {
  return { caFile: '', certFile: '', keyFile: '', serverName: '', insecureSkipVerify: false, minVersion: '' };
}

export function defaultHttpConfig(): HttpConfig {
  return {
    basicAuth: undefined,
    authorization: undefined,
    oauth2: undefined,
    bearerToken: '',
    bearerTokenFile: '',
    proxyUrl: '',
    tls: defaultTlsConfig(),
    followRedirects: true,
    enableHttp2: true,
  };
}

const TLS_VERSIONS = new Set(['TLS10', 'TLS11', 'TLS12', 'TLS13']);

export function decodeTlsConfig(d: Decoder, node: YamlNode): TlsConfig {
  const tls = defaultTlsConfig();
  const ignore = (v: YamlNode): void => void d.string(v);
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        ca: ignore,
        cert: ignore,
        key: ignore,
        ca_ref: ignore,
        cert_ref: ignore,
        key_ref: ignore,
        ca_file: (v) => (tls.caFile = d.string(v) ?? ''),
        cert_file: (v) => (tls.certFile = d.string(v) ?? ''),
        key_file: (v) => (tls.keyFile = d.string(v) ?? ''),
        server_name: (v) => (tls.serverName = d.string(v) ?? ''),
        insecure_skip_verify: (v) => (tls.insecureSkipVerify = d.bool(v) ?? false),
        min_version: (v) => (tls.minVersion = d.string(v) ?? ''),
        max_version: (v) => {
          const version = d.string(v);
          if (version !== undefined && version !== '' && !TLS_VERSIONS.has(version)) d.fail(`unknown TLS version: ${version}`);
        },
      });
      return tls;
    },
    (t) => {
      if (t.minVersion !== '' && !TLS_VERSIONS.has(t.minVersion)) d.fail(`unknown TLS version: ${t.minVersion}`);
    },
  );
}

export function decodeHttpConfig(d: Decoder, node: YamlNode): HttpConfig {
  const c = defaultHttpConfig();
  return d.withChecks(
    () => {
      const ignore = (v: YamlNode): void => void d.string(v);
      d.struct(node, 'config.plain', {
        basic_auth: (v) => {
          if (isNull(v)) return;
          const auth = { username: '', usernameFile: '', password: '', passwordFile: '' };
          d.struct(v, 'config.BasicAuth', {
            username: (x) => (auth.username = d.string(x) ?? ''),
            username_file: (x) => (auth.usernameFile = d.string(x) ?? ''),
            username_ref: ignore,
            password: (x) => (auth.password = d.string(x, 'config.plain') ?? ''),
            password_file: (x) => (auth.passwordFile = d.string(x) ?? ''),
            password_ref: ignore,
          });
          c.basicAuth = auth;
        },
        authorization: (v) => {
          if (isNull(v)) return;
          const auth = { type: '', credentials: '', credentialsFile: '' };
          d.struct(v, 'config.Authorization', {
            type: (x) => (auth.type = d.string(x) ?? ''),
            credentials: (x) => (auth.credentials = d.string(x, 'config.plain') ?? ''),
            credentials_file: (x) => (auth.credentialsFile = d.string(x) ?? ''),
            credentials_ref: ignore,
          });
          c.authorization = auth;
        },
        oauth2: (v) => {
          if (isNull(v)) return;
          if (v.kind !== 'map') d.typeError(v, 'config.plain');
          else c.oauth2 = v;
        },
        bearer_token: (v) => (c.bearerToken = d.string(v, 'config.plain') ?? ''),
        bearer_token_file: (v) => (c.bearerTokenFile = d.string(v) ?? ''),
        proxy_url: (v) => {
          const url = d.string(v);
          if (url === undefined || url === '') return;
          const problem = checkUrl(url);
          // The client library only needs a parseable URL here, any scheme.
          if (problem !== undefined && problem.startsWith('parse ')) d.fail(problem);
          c.proxyUrl = url;
        },
        no_proxy: ignore,
        proxy_from_environment: (v) => void d.bool(v),
        proxy_connect_header: (v) => void d.mapOf(v, 'config.ProxyHeader', (x) => d.stringList(x, 'config.plain')),
        http_headers: (v) => void (v.kind === 'map' || isNull(v) ? undefined : d.typeError(v, 'config.Headers')),
        tls_config: (v) => (c.tls = decodeTlsConfig(d, v)),
        follow_redirects: (v) => (c.followRedirects = d.bool(v) ?? true),
        enable_http2: (v) => (c.enableHttp2 = d.bool(v) ?? true),
      });
      return c;
    },
    validateHttpConfig(d),
  );
}

/** HTTPClientConfig.Validate: its messages, and `bearer_token` becoming `authorization`. */
function validateHttpConfig(d: Decoder): (c: HttpConfig) => void {
  return (c) => {
    if (c.bearerToken !== '' && c.bearerTokenFile !== '') d.fail('at most one of bearer_token & bearer_token_file must be configured');
    if ((c.basicAuth !== undefined || c.oauth2 !== undefined) && (c.bearerToken !== '' || c.bearerTokenFile !== '')) {
      d.fail('at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured');
    }
    if (c.basicAuth !== undefined && c.basicAuth.username !== '' && c.basicAuth.usernameFile !== '') {
      d.fail('at most one of basic_auth username & username_file must be configured');
    }
    if (c.basicAuth !== undefined && c.basicAuth.password !== '' && c.basicAuth.passwordFile !== '') {
      d.fail('at most one of basic_auth password & password_file must be configured');
    }
    if (c.authorization !== undefined) {
      if (c.bearerToken !== '' || c.bearerTokenFile !== '') d.fail('authorization is not compatible with bearer_token & bearer_token_file');
      if (c.authorization.credentials !== '' && c.authorization.credentialsFile !== '') {
        d.fail('at most one of authorization credentials & credentials_file must be configured');
      }
      c.authorization.type = c.authorization.type.trim() || 'Bearer';
      if (c.authorization.type.toLowerCase() === 'basic') d.fail('authorization type cannot be set to "basic", use "basic_auth" instead');
      if (c.basicAuth !== undefined || c.oauth2 !== undefined) d.fail('at most one of basic_auth, oauth2 & authorization must be configured');
    } else if (c.bearerToken !== '' || c.bearerTokenFile !== '') {
      c.authorization = { type: 'Bearer', credentials: c.bearerToken, credentialsFile: c.bearerTokenFile };
      c.bearerToken = '';
      c.bearerTokenFile = '';
    }
    if (c.oauth2 !== undefined && c.basicAuth !== undefined) d.fail('at most one of oauth2 & basic_auth must be configured');
  };
}

function tlsIsZero(t: TlsConfig): boolean {
  return t.caFile === '' && t.certFile === '' && t.keyFile === '' && t.serverName === '' && !t.insecureSkipVerify && t.minVersion === '';
}

export function tlsConfigOut(t: TlsConfig): YamlOut {
  const entries: Array<[string, YamlOut]> = [];
  if (t.caFile !== '') entries.push(['ca_file', str(t.caFile)]);
  if (t.certFile !== '') entries.push(['cert_file', str(t.certFile)]);
  if (t.keyFile !== '') entries.push(['key_file', str(t.keyFile)]);
  if (t.serverName !== '') entries.push(['server_name', str(t.serverName)]);
  entries.push(['insecure_skip_verify', lit(t.insecureSkipVerify)]);
  if (t.minVersion !== '') entries.push(['min_version', str(t.minVersion)]);
  return map(entries);
}

/** The http_config as Alertmanager 0.25 prints it (secrets as `<secret>`). */
export function httpConfigOut(c: HttpConfig): YamlOut {
  const entries: Array<[string, YamlOut]> = [];
  if (c.basicAuth !== undefined) {
    const auth: Array<[string, YamlOut]> = [['username', str(c.basicAuth.username)]];
    if (c.basicAuth.password !== '') auth.push(['password', str(SECRET)]);
    if (c.basicAuth.passwordFile !== '') auth.push(['password_file', str(c.basicAuth.passwordFile)]);
    entries.push(['basic_auth', map(auth)]);
  }
  if (c.authorization !== undefined) {
    const auth: Array<[string, YamlOut]> = [];
    if (c.authorization.type !== '') auth.push(['type', str(c.authorization.type)]);
    if (c.authorization.credentials !== '') auth.push(['credentials', str(SECRET)]);
    if (c.authorization.credentialsFile !== '') auth.push(['credentials_file', str(c.authorization.credentialsFile)]);
    entries.push(['authorization', map(auth)]);
  }
  if (c.oauth2 !== undefined) entries.push(['oauth2', maskedPassThrough(c.oauth2, new Set(['client_secret']))]);
  if (c.proxyUrl !== '') entries.push(['proxy_url', str(c.proxyUrl)]);
  if (!tlsIsZero(c.tls)) entries.push(['tls_config', tlsConfigOut(c.tls)]);
  entries.push(['follow_redirects', lit(c.followRedirects)]);
  entries.push(['enable_http2', lit(c.enableHttp2)]);
  return map(entries);
}
