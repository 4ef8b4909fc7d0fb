import { SettingsError, type EnvReader } from './env-reader.js';

/**
 * The xDS management server the rules come from with CONFIG_TYPE=GRPC_XDS_SOTW (upstream
 * envoyproxy/ratelimit's CONFIG_GRPC_XDS_* and XDS_CLIENT_* names). Names: see README "Settings".
 */
export interface XdsSettings {
  /** Node.id sent with every discovery request. */
  xdsNodeId: string;
  /** Node.metadata string fields, in the order given. */
  xdsNodeMetadata: ReadonlyArray<readonly [string, string]>;
  /** The ADS server, as a gRPC target (`host:port`, `dns:///host:port`). */
  xdsServerUrl: string;
  /** Wait before dialling again after the server could not be reached. */
  xdsServerConnectRetryIntervalMs: number;
  /** Metadata sent on the stream, header names lowercased. */
  xdsClientAdditionalHeaders: ReadonlyArray<readonly [string, string]>;
  xdsServerUseTls: boolean;
  /** Client certificate and key presented to the server; both or neither. */
  xdsClientTlsCert: string;
  xdsClientTlsKey: string;
  /** CA the server's certificate is checked against; empty: the system's roots. */
  xdsServerTlsCacert: string;
  /** Name the server's certificate must carry instead of the host of the URL. */
  xdsServerTlsSan: string;
  /** Reconnect backoff: the first wait, the longest wait, the multiplier per attempt, jitter. */
  xdsBackoffInitialMs: number;
  xdsBackoffMaxMs: number;
  xdsBackoffFactor: number;
  xdsBackoffJitter: boolean;
  /** Largest discovery response accepted, in bytes; 0: grpc-js's own limit (4 MiB). */
  xdsMaxMessageBytes: number;
}

/** Most a multiplier may grow the wait per attempt; more would reach the longest wait at once anyway. */
const MAX_BACKOFF_FACTOR = 100;
/** gRPC message sizes are signed 32-bit. */
const MAX_MESSAGE_BYTES = 2 ** 31 - 1;
/** gRPC metadata keys: lowercase letters, digits, `-`, `_`, `.` (names are lowercased first). */
const METADATA_KEY = /^[0-9a-z_.-]+$/;

export function readXdsSettings(env: EnvReader): XdsSettings {
  return {
    xdsNodeId: env.string(['CONFIG_GRPC_XDS_NODE_ID'], 'default'),
    xdsNodeMetadata: readPairs(env, 'CONFIG_GRPC_XDS_NODE_METADATA', '='),
    xdsServerUrl: env.string(['CONFIG_GRPC_XDS_SERVER_URL'], 'localhost:18000').trim(),
    xdsServerConnectRetryIntervalMs: env.durationMs(['CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL'], 3000),
    xdsClientAdditionalHeaders: readHeaders(env),
    xdsServerUseTls: env.bool(['CONFIG_GRPC_XDS_SERVER_USE_TLS'], false),
    xdsClientTlsCert: env.string(['CONFIG_GRPC_XDS_CLIENT_TLS_CERT'], ''),
    xdsClientTlsKey: env.string(['CONFIG_GRPC_XDS_CLIENT_TLS_KEY'], ''),
    xdsServerTlsCacert: env.string(['CONFIG_GRPC_XDS_SERVER_TLS_CACERT'], ''),
    xdsServerTlsSan: env.string(['CONFIG_GRPC_XDS_SERVER_TLS_SAN'], ''),
    xdsBackoffInitialMs: env.durationMs(['XDS_CLIENT_BACKOFF_INITIAL_INTERVAL'], 10_000),
    xdsBackoffMaxMs: env.durationMs(['XDS_CLIENT_BACKOFF_MAX_INTERVAL'], 60_000),
    xdsBackoffFactor: readFactor(env),
    xdsBackoffJitter: env.bool(['XDS_CLIENT_BACKOFF_JITTER'], true),
    xdsMaxMessageBytes: env.integer(['XDS_CLIENT_MAX_MSG_SIZE_IN_BYTES'], 0, 0, MAX_MESSAGE_BYTES),
  };
}

/** Settings that are each valid but do not work together; checked only when the rules come from xDS. */
export function checkXdsSettings(s: XdsSettings): void {
  if (s.xdsServerUrl === '') throw new SettingsError('CONFIG_GRPC_XDS_SERVER_URL is empty (expected the ADS server as host:port)');
  const tlsFiles = s.xdsClientTlsCert !== '' || s.xdsClientTlsKey !== '' || s.xdsServerTlsCacert !== '' || s.xdsServerTlsSan !== '';
  if (tlsFiles && !s.xdsServerUseTls) {
    throw new SettingsError('CONFIG_GRPC_XDS_CLIENT_TLS_CERT, CONFIG_GRPC_XDS_CLIENT_TLS_KEY, CONFIG_GRPC_XDS_SERVER_TLS_CACERT and CONFIG_GRPC_XDS_SERVER_TLS_SAN need CONFIG_GRPC_XDS_SERVER_USE_TLS=true');
  }
  if (s.xdsClientTlsCert !== '' && s.xdsClientTlsKey === '') throw new SettingsError('CONFIG_GRPC_XDS_CLIENT_TLS_CERT is set but CONFIG_GRPC_XDS_CLIENT_TLS_KEY is not');
  if (s.xdsClientTlsKey !== '' && s.xdsClientTlsCert === '') throw new SettingsError('CONFIG_GRPC_XDS_CLIENT_TLS_KEY is set but CONFIG_GRPC_XDS_CLIENT_TLS_CERT is not');
  if (s.xdsBackoffInitialMs <= 0) throw new SettingsError('XDS_CLIENT_BACKOFF_INITIAL_INTERVAL must be above 0 (a reconnect would otherwise spin)');
  if (s.xdsBackoffMaxMs < s.xdsBackoffInitialMs) {
    throw new SettingsError(`XDS_CLIENT_BACKOFF_MAX_INTERVAL (${s.xdsBackoffMaxMs}ms) is shorter than XDS_CLIENT_BACKOFF_INITIAL_INTERVAL (${s.xdsBackoffInitialMs}ms)`);
  }
  if (s.xdsServerConnectRetryIntervalMs <= 0) throw new SettingsError('CONFIG_GRPC_XDS_SERVER_CONNECT_RETRY_INTERVAL must be above 0 (a reconnect would otherwise spin)');
}

/** The multiplier upstream reads from XDS_CLIENT_BACKOFF_RANDOM_FACTOR; below 1 the wait stays at the initial interval. */
function readFactor(env: EnvReader): number {
  const raw = env.string(['XDS_CLIENT_BACKOFF_RANDOM_FACTOR'], '').trim();
  if (raw === '') return 0.5;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > MAX_BACKOFF_FACTOR) {
    throw new SettingsError(`invalid value for XDS_CLIENT_BACKOFF_RANDOM_FACTOR: ${JSON.stringify(raw)} (expected a number above 0, up to ${MAX_BACKOFF_FACTOR})`);
  }
  return n;
}

/** `k1<sep>v1,k2<sep>v2`, split on `,` then on the first separator; empty entries are skipped. */
function readPairs(env: EnvReader, name: string, separator: string): Array<[string, string]> {
  const raw = env.string([name], '');
  const pairs: Array<[string, string]> = [];
  for (const entry of raw.split(',')) {
    if (entry.trim() === '') continue;
    const at = entry.indexOf(separator);
    const key = at < 0 ? '' : entry.slice(0, at).trim();
    if (key === '') {
      throw new SettingsError(`invalid value for ${name}: ${JSON.stringify(raw)} (expected key${separator}value pairs separated by commas; ${JSON.stringify(entry)} has no key)`);
    }
    pairs.push([key, entry.slice(at + 1).trim()]);
  }
  return pairs;
}

/** Header names become gRPC metadata keys, which are lowercase; `-bin` keys carry bytes, not text. */
function readHeaders(env: EnvReader): Array<[string, string]> {
  const name = 'CONFIG_GRPC_XDS_CLIENT_ADDITIONAL_HEADERS';
  return readPairs(env, name, ':').map(([key, value]) => {
    const lower = key.toLowerCase();
    if (!METADATA_KEY.test(lower) || lower.endsWith('-bin') || lower.startsWith('grpc-')) {
      throw new SettingsError(`invalid value for ${name}: header ${JSON.stringify(key)} is not a text metadata name (letters, digits, -, _ and . only; not grpc-*, not *-bin)`);
    }
    return [lower, value];
  });
}
