import { availableParallelism } from 'node:os';
import { DEFAULT_MAX_STAT_NAMES, type LogFormat, type LogLevel } from '../observability/index.js';
import { EnvReader, SettingsError } from './env-reader.js';
import type { Durability } from '../sqlite/index.js';
import { readStoreSettings, type StoreSettings } from './store-settings.js';
import { readAnswerSettings, type AnswerSettings } from './answer-settings.js';
import { readObservabilitySettings, type ObservabilitySettings } from './observability-settings.js';
import { readScoreExportSettings, type ScoreExportSettings } from './score-export-settings.js';
import { checkXdsSettings, readXdsSettings, type XdsSettings } from './xds-settings.js';

export type ConfigType = 'FILE' | 'GRPC_XDS_SOTW';
export type DecisionMode = 'inline' | 'pool';
/** The lower-priority APIs the API thread can serve (APIS). */
export type ServedApi = 'alerts' | 'scores';
const SERVED_APIS: readonly ServedApi[] = ['alerts', 'scores'];

/** Every setting the service reads, typed and validated. Names: see README "Settings". */
export interface Settings extends StoreSettings, ObservabilitySettings, ScoreExportSettings, XdsSettings, AnswerSettings {
  host: string;
  port: number;
  debugHost: string;
  debugPort: number;
  /** Bearer token the debug port's profiles and heap snapshots require; '' requires none on loopback. */
  debugToken: string;
  /** Alertmanager's web configuration file (TLS, basic auth, headers) for the HTTP port; '' for none. */
  webConfigFile: string;
  /** How often the web configuration file and the files it names are checked for a change. */
  webConfigReloadIntervalMs: number;
  grpcHost: string;
  grpcPort: number;
  /** Unix socket path; when set, gRPC listens there instead of GRPC_HOST:GRPC_PORT. */
  grpcUds: string;
  grpcMaxConnectionAgeMs: number;
  grpcMaxConnectionAgeGraceMs: number;
  grpcServerUseTls: boolean;
  grpcServerTlsCert: string;
  grpcServerTlsKey: string;
  /** Client CA for mutual TLS; empty means no client certificate is asked for. */
  grpcClientTlsCacert: string;
  /** DNS name a client certificate must carry as a SAN; empty accepts any certificate the CA signed. */
  grpcClientTlsSan: string;
  /** How often certificate files are checked for a change. */
  grpcTlsReloadIntervalMs: number;
  /**
   * Where the alert and score APIs listen when they have a port of their own (served by a front
   * thread of their own, so their traffic never shares a thread with decisions); undefined: on
   * PORT beside the decisions. 0 picks a free port.
   */
  apiPort: number | undefined;
  /** Worker threads serving HTTP on the same port (SO_REUSEPORT); 0 serves HTTP on the main thread. */
  httpWorkers: number;
  /** `inline`: each front decides on its own thread; `pool`: fronts send batches to a piscina pool. */
  decisionMode: DecisionMode;
  /** Piscina threads per front in pool mode. */
  poolThreads: number;
  /** Largest configuration: the rules files together, and the rules as threads receive them. */
  configMaxBytes: number;
  /** Old-generation heap of the rules loader thread; a load that needs more fails. */
  configLoaderMaxHeapMb: number;
  /** A load of the rules that takes longer fails. */
  configLoadTimeoutMs: number;
  /** Nice value (0-19) of the rules loader thread. */
  configLoaderNice: number;
  /** Largest accepted HTTP request body; larger bodies get 413. */
  maxRequestBytes: number;
  /** Most descriptors accepted in one request; more is a 400. */
  maxDescriptorsPerRequest: number;
  /** Distinct requests (/json bodies, gRPC messages) each thread keeps read and matched, so that their repeats skip both; 0 keeps none. */
  requestCacheSize: number;
  /** Largest request body the front reads for the alert and score APIs; larger gets 413. */
  apiMaxRequestBytes: number;
  /** Requests one HTTP thread may have waiting for the API thread; more get 503 at once. */
  apiMaxPending: number;
  /** Nice value of the API thread (0-19): higher yields the CPU to decision threads sooner. */
  apiThreadNice: number;
  /** Bytes of alert and score request bodies the HTTP threads together may hold while reading them. */
  apiMaxBodyBytesInFlight: number;
  /** A stop ends within this long: in-flight requests drain, then everything is released. */
  drainTimeoutMs: number;
  /** The APIs served beside the decisions, on the API thread; none: no API thread at all. */
  apis: readonly ServedApi[];
  /** Where the alert and score APIs keep their durable state. */
  dataDir: string;
  /** `normal`: acknowledged writes survive a killed process; `full`: a power cut too (an fsync per write). */
  dataSync: Durability;
  /** Processes (started on demand) engraving score exports. */
  scoresRenderThreads: number;
  /** The FluidSynth executable that turns a score's MIDI into audio. */
  scoresFluidsynth: string;
  /** The LAME executable that encodes MP3. */
  scoresLame: string;
  /** The General MIDI SoundFont FluidSynth plays with. */
  scoresSoundfont: string;
  /** Sample rate of the wav and mp3 exports. */
  scoresSampleRate: number;
  /** Bit rate of the mp3 export, in kbit/s. */
  scoresMp3BitrateKbps: number;
  /** Scheme, host and port clients reach the score API at (for file URLs); '' uses the request's Host. */
  scoresPublicUrl: string;
  /** How long a signed file URL (`?url=true`, track audio) stays valid. */
  scoresUrlTtlMs: number;
  /** Bearer token of the token-issuing admin route; '' leaves the route out. */
  scoresAdminToken: string;
  /** PostgreSQL connection URL of the score API's store; '' keeps it in SQLite under DATA_DIR. */
  scoresDatabaseUrl: string;
  /** Bytes one account may store: the MusicXML of its scores' revisions and its uploaded files. */
  scoresAccountMaxBytes: number;
  /** Uploaded files (pictures, recordings) one account may keep. */
  scoresAccountMaxUploads: number;
  /** Revisions one score may have. */
  scoresMaxRevisionsPerScore: number;
  /** Comments one score may have. */
  scoresMaxCommentsPerScore: number;
  /** Regular collections one account may have, trashed ones included. */
  scoresAccountMaxCollections: number;
  /** Unknown enrollment codes one account may try per minute before it must wait. */
  scoresEnrollFailuresPerMinute: number;
  /** Lifetime of a personal access token issued without one of its own. */
  scoresTokenTtlMs: number;
  /** The Alertmanager configuration file of the alert API ('' for the built-in one). */
  alertmanagerConfig: string;
  /** How often resolved alerts are dropped (Alertmanager's --alerts.gc-interval). */
  alertmanagerGcIntervalMs: number;
  /** How long expired silences are kept (--data.retention). */
  alertmanagerRetentionMs: number;
  /** Most silences that are not expired; 0: no limit (--silences.max-silences). */
  alertmanagerMaxSilences: number;
  /** Largest silence in bytes; 0: no limit (--silences.max-silence-size-bytes). */
  alertmanagerMaxSilenceBytes: number;
  /** Most alerts one POST /api/v2/alerts may carry. */
  alertmanagerMaxAlertsPerRequest: number;
  /** Most alerts held, resolved ones not yet dropped included; 0: no limit. */
  alertmanagerMaxAlerts: number;
  /** How long a resolved alert is kept after its end before it leaves memory and disk. */
  alertmanagerResolvedRetentionMs: number;
  /** Largest value of one silence matcher (a regex pattern or a literal), in bytes; 0: no limit. */
  alertmanagerMaxSilenceMatcherBytes: number;
  /** Where users reach the alert API, as notifications link to it ('' for `http://<host name>:<PORT>`; --web.external-url). */
  alertmanagerExternalUrl: string;
  /** How long the notification history keeps an attempt. */
  alertmanagerNotificationHistoryRetentionMs: number;

  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Distinct statistic names each thread keeps; increments of further names go to one overflow counter. */
  statsMaxNames: number;

  configType: ConfigType;
  forceStartWithoutInitialConfig: boolean;
  runtimeRoot: string;
  runtimeSubdirectory: string;
  runtimeAppDirectory: string;
  runtimeIgnoreDotFiles: boolean;
  runtimeWatchRoot: boolean;
  /** How often the config watcher re-checks the root symlink in case a file event was missed. */
  runtimeWatchPollMs: number;
  mergeDomainConfig: boolean;
  healthyWithAtLeastOneConfigLoaded: boolean;

  nearLimitRatio: number;
  shadowMode: boolean;
  cacheKeyPrefix: string;
  limitResponseHeadersEnabled: boolean;
  limitLimitHeader: string;
  limitRemainingHeader: string;
  limitResetHeader: string;
}

/** The constant bit rates LAME encodes MPEG-1 layer III at (kbit/s). */
const MP3_BITRATES = ['32', '40', '48', '56', '64', '80', '96', '112', '128', '160', '192', '224', '256', '320'] as const;

/** Shortest WEB_CONFIG_RELOAD_INTERVAL: each poll stats every file the web configuration names. */
const MIN_WEB_CONFIG_RELOAD_MS = 10;
/** Shortest SCORES_ADMIN_TOKEN accepted: 32 characters of a random hex string carry 128 bits. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Upstream logrus level names that map onto ours. */
function normaliseLogLevel(raw: string): string {
  const lower = raw.toLowerCase();
  if (lower === 'warning') return 'warn';
  if (lower === 'trace') return 'debug';
  if (lower === 'fatal' || lower === 'panic') return 'error';
  return lower;
}

/**
 * One HTTP thread per core the process may run on but one (availableParallelism honours CPU
 * affinity), gRPC on the main thread. A sidecar shares its cores with Envoy and the application:
 * beside a load generator on two cores, two HTTP threads kept 0.83-0.96 of bare uWS's /json
 * throughput at 2.0-3.2x its p99, one kept 0.90-1.13 at 1.31-1.66x (native-bench:layouts, README
 * "Benchmarks").
 * With a single core, HTTP is served on the main thread: a second thread there only adds its
 * isolate's overhead (measured with HTTP_WORKERS=0 against 1 on one pinned core: about 15 against
 * 20 µs of CPU per /json request in most pairs).
 */
export function defaultHttpWorkers(cores: number): number {
  return cores > 1 ? cores - 1 : 0;
}

/** Reads and validates every setting; throws SettingsError naming the first bad variable. */
export function loadSettings(source: Readonly<Record<string, string | undefined>> = process.env): Settings {
  const env = new EnvReader(source);
  const logLevel = normaliseLogLevel(env.string(['LOG_LEVEL'], 'warn'));
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new SettingsError(
      `invalid value for LOG_LEVEL: ${JSON.stringify(source['LOG_LEVEL'])} (expected one of debug, info, warn, error)`,
    );
  }

  const settings: Settings = {
    host: env.string(['HOST'], '0.0.0.0'),
    port: env.port(['PORT'], 8080),
    debugHost: env.string(['DEBUG_HOST'], '127.0.0.1'),
    debugPort: env.port(['DEBUG_PORT'], 6070),
    debugToken: env.string(['DEBUG_TOKEN'], ''),
    webConfigFile: env.string(['WEB_CONFIG_FILE'], ''),
    webConfigReloadIntervalMs: env.durationMs(['WEB_CONFIG_RELOAD_INTERVAL'], 1000),
    grpcHost: env.string(['GRPC_HOST'], '0.0.0.0'),
    grpcPort: env.port(['GRPC_PORT'], 8081),
    grpcUds: env.string(['GRPC_UDS'], ''),
    grpcMaxConnectionAgeMs: env.durationMs(['GRPC_MAX_CONNECTION_AGE'], 24 * 3_600_000),
    grpcMaxConnectionAgeGraceMs: env.durationMs(['GRPC_MAX_CONNECTION_AGE_GRACE'], 3_600_000),
    grpcServerUseTls: env.bool(['GRPC_SERVER_USE_TLS'], false),
    grpcServerTlsCert: env.string(['GRPC_SERVER_TLS_CERT'], ''),
    grpcServerTlsKey: env.string(['GRPC_SERVER_TLS_KEY'], ''),
    grpcClientTlsCacert: env.string(['GRPC_CLIENT_TLS_CACERT'], ''),
    grpcClientTlsSan: env.string(['GRPC_CLIENT_TLS_SAN'], ''),
    grpcTlsReloadIntervalMs: env.durationMs(['GRPC_TLS_RELOAD_INTERVAL'], 1000),
    apiPort: env.string(['API_PORT'], '').trim() === '' ? undefined : env.port(['API_PORT'], 0),
    httpWorkers: env.integer(['HTTP_WORKERS'], defaultHttpWorkers(availableParallelism()), 0, 256),
    decisionMode: env.choice(['DECISION_MODE'], 'inline', ['inline', 'pool']),
    poolThreads: env.integer(['POOL_THREADS'], 1, 1, 256),
    configMaxBytes: env.integer(['CONFIG_MAX_BYTES'], 64 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    configLoaderMaxHeapMb: env.integer(['CONFIG_LOADER_MAX_HEAP_MB'], 2048, 64, 65536),
    configLoadTimeoutMs: env.durationMs(['CONFIG_LOAD_TIMEOUT'], 120_000),
    configLoaderNice: env.integer(['CONFIG_LOADER_NICE'], 10, 0, 19),
    maxRequestBytes: env.integer(['MAX_REQUEST_BYTES'], 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxDescriptorsPerRequest: env.integer(['MAX_DESCRIPTORS_PER_REQUEST'], 1000, 1, 1_000_000),
    requestCacheSize: env.integer(['REQUEST_CACHE_SIZE'], 1000, 0, 1_000_000),
    apiMaxRequestBytes: env.integer(['API_MAX_REQUEST_BYTES'], 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    apiMaxPending: env.integer(['API_MAX_PENDING'], 1024, 1, 1_000_000),
    apiThreadNice: env.integer(['API_THREAD_NICE'], 10, 0, 19),
    apiMaxBodyBytesInFlight: env.integer(['API_MAX_BODY_BYTES_IN_FLIGHT'], 64 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    drainTimeoutMs: env.durationMs(['DRAIN_TIMEOUT'], 10_000),
    apis: readServedApis(source['APIS']),
    dataDir: env.string(['DATA_DIR'], 'data'),
    dataSync: env.choice(['DATA_SYNC'], 'normal', ['normal', 'full']),
    scoresRenderThreads: env.integer(['SCORES_RENDER_THREADS'], 1, 1, 64),
    scoresFluidsynth: env.string(['SCORES_FLUIDSYNTH'], 'fluidsynth'),
    scoresLame: env.string(['SCORES_LAME'], 'lame'),
    scoresSoundfont: env.string(['SCORES_SOUNDFONT'], '/usr/share/sounds/sf2/default-GM.sf2'),
    scoresSampleRate: env.integer(['SCORES_SAMPLE_RATE'], 44_100, 8_000, 96_000),
    scoresMp3BitrateKbps: Number(env.choice(['SCORES_MP3_BITRATE'], '128', MP3_BITRATES)),
    scoresPublicUrl: env.string(['SCORES_PUBLIC_URL'], '').replace(/\/+$/, ''),
    scoresUrlTtlMs: env.durationMs(['SCORES_URL_TTL'], 3_600_000),
    scoresAdminToken: env.string(['SCORES_ADMIN_TOKEN'], ''),
    scoresDatabaseUrl: env.string(['SCORES_DATABASE_URL'], ''),
    scoresAccountMaxBytes: env.integer(['SCORES_ACCOUNT_MAX_BYTES'], 1024 * 1024 * 1024, 1024, 2 ** 50),
    scoresAccountMaxUploads: env.integer(['SCORES_ACCOUNT_MAX_UPLOADS'], 1000, 1, 100_000_000),
    scoresMaxRevisionsPerScore: env.integer(['SCORES_MAX_REVISIONS_PER_SCORE'], 1000, 1, 100_000_000),
    scoresMaxCommentsPerScore: env.integer(['SCORES_MAX_COMMENTS_PER_SCORE'], 1000, 1, 1_000_000),
    scoresAccountMaxCollections: env.integer(['SCORES_ACCOUNT_MAX_COLLECTIONS'], 1000, 1, 100_000_000),
    scoresEnrollFailuresPerMinute: env.integer(['SCORES_ENROLL_FAILURES_PER_MINUTE'], 10, 1, 1_000_000),
    scoresTokenTtlMs: env.durationMs(['SCORES_TOKEN_TTL'], 90 * 24 * 3_600_000),
    alertmanagerConfig: env.string(['ALERTMANAGER_CONFIG'], ''),
    alertmanagerGcIntervalMs: env.durationMs(['ALERTMANAGER_GC_INTERVAL'], 30 * 60_000),
    alertmanagerRetentionMs: env.durationMs(['ALERTMANAGER_DATA_RETENTION'], 120 * 3_600_000),
    alertmanagerMaxSilences: env.integer(['ALERTMANAGER_MAX_SILENCES'], 0, 0, 100_000_000),
    alertmanagerMaxSilenceBytes: env.integer(['ALERTMANAGER_MAX_SILENCE_SIZE_BYTES'], 0, 0, 1024 * 1024 * 1024),
    alertmanagerMaxAlertsPerRequest: env.integer(['ALERTMANAGER_MAX_ALERTS_PER_REQUEST'], 10_000, 1, 10_000_000),
    alertmanagerMaxAlerts: env.integer(['ALERTMANAGER_MAX_ALERTS'], 100_000, 0, 100_000_000),
    alertmanagerResolvedRetentionMs: env.durationMs(['ALERTMANAGER_RESOLVED_RETENTION'], 5000),
    alertmanagerMaxSilenceMatcherBytes: env.integer(['ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES'], 64 * 1024, 0, 1024 * 1024 * 1024),
    alertmanagerExternalUrl: env.string(['ALERTMANAGER_EXTERNAL_URL'], ''),
    alertmanagerNotificationHistoryRetentionMs: env.durationMs(['ALERTMANAGER_NOTIFICATION_HISTORY_RETENTION'], 120 * 3_600_000),

    logLevel: logLevel as LogLevel,
    logFormat: env.choice(['LOG_FORMAT'], 'text', ['text', 'json'], true),
    statsMaxNames: env.integer(['STATS_MAX_NAMES'], DEFAULT_MAX_STAT_NAMES, 100, 100_000_000),

    configType: env.choice(['CONFIG_TYPE'], 'FILE', ['FILE', 'GRPC_XDS_SOTW']),
    forceStartWithoutInitialConfig: env.bool(['FORCE_START_WITHOUT_INITIAL_CONFIG'], false),
    runtimeRoot: env.string(['RUNTIME_ROOT'], '/srv/runtime_data/current'),
    runtimeSubdirectory: env.string(['RUNTIME_SUBDIRECTORY'], ''),
    runtimeAppDirectory: env.string(['RUNTIME_APPDIRECTORY'], 'config'),
    runtimeIgnoreDotFiles: env.bool(['RUNTIME_IGNOREDOTFILES'], false),
    runtimeWatchRoot: env.bool(['RUNTIME_WATCH_ROOT'], true),
    runtimeWatchPollMs: env.durationMs(['RUNTIME_WATCH_POLL_INTERVAL'], 1000),
    mergeDomainConfig: env.bool(['MERGE_DOMAIN_CONFIG'], false),
    healthyWithAtLeastOneConfigLoaded: env.bool(['HEALTHY_WITH_AT_LEAST_ONE_CONFIG_LOADED'], false),

    nearLimitRatio: env.ratio(['NEAR_LIMIT_RATIO'], 0.8),
    shadowMode: env.bool(['SHADOW_MODE'], false),
    cacheKeyPrefix: env.string(['CACHE_KEY_PREFIX'], ''),
    limitResponseHeadersEnabled: env.bool(['LIMIT_RESPONSE_HEADERS_ENABLED'], false),
    limitLimitHeader: env.string(['LIMIT_LIMIT_HEADER'], 'RateLimit-Limit'),
    limitRemainingHeader: env.string(['LIMIT_REMAINING_HEADER'], 'RateLimit-Remaining'),
    limitResetHeader: env.string(['LIMIT_RESET_HEADER'], 'RateLimit-Reset'),

    ...readStoreSettings(env),
    ...readObservabilitySettings(env),
    ...readScoreExportSettings(env),
    ...readXdsSettings(env),
    ...readAnswerSettings(env),
  };
  checkCombinations(settings);
  checkScoresSettings(settings, source);
  if (settings.configType === 'GRPC_XDS_SOTW') checkXdsSettings(settings);
  return settings;
}

/** Settings that are each valid but do not work together. */
function checkCombinations(s: Settings): void {
  if (s.grpcServerUseTls) {
    if (s.grpcServerTlsCert === '') throw new SettingsError('GRPC_SERVER_USE_TLS is true but GRPC_SERVER_TLS_CERT is not set');
    if (s.grpcServerTlsKey === '') throw new SettingsError('GRPC_SERVER_USE_TLS is true but GRPC_SERVER_TLS_KEY is not set');
  } else if (s.grpcClientTlsCacert !== '' || s.grpcClientTlsSan !== '') {
    throw new SettingsError('GRPC_CLIENT_TLS_CACERT and GRPC_CLIENT_TLS_SAN need GRPC_SERVER_USE_TLS=true (mutual TLS)');
  }
  if (s.alertmanagerExternalUrl !== '' && !/^https?:\/\/[^/]/.test(s.alertmanagerExternalUrl)) {
    throw new SettingsError(`ALERTMANAGER_EXTERNAL_URL must be an http:// or https:// URL, got ${JSON.stringify(s.alertmanagerExternalUrl)}`);
  }
  if (s.apiMaxBodyBytesInFlight < s.apiMaxRequestBytes) {
    throw new SettingsError(`API_MAX_BODY_BYTES_IN_FLIGHT (${s.apiMaxBodyBytesInFlight}) is smaller than API_MAX_REQUEST_BYTES (${s.apiMaxRequestBytes}): a body of the largest size could never be read`);
  }
  if (s.grpcClientTlsSan !== '' && s.grpcClientTlsCacert === '') {
    throw new SettingsError('GRPC_CLIENT_TLS_SAN needs GRPC_CLIENT_TLS_CACERT (client certificates are only checked under mutual TLS)');
  }
  if (s.apiPort !== undefined && s.apiPort !== 0 && s.apiPort === s.port) {
    throw new SettingsError(`API_PORT (${s.apiPort}) is PORT: leave API_PORT unset to serve the APIs on PORT, or give them a port of their own`);
  }
  if (s.apiPort !== undefined && s.apis.length === 0) {
    throw new SettingsError('API_PORT is set but APIS=none serves no API there');
  }
  if (s.webConfigReloadIntervalMs < MIN_WEB_CONFIG_RELOAD_MS) {
    throw new SettingsError(`WEB_CONFIG_RELOAD_INTERVAL must be at least ${MIN_WEB_CONFIG_RELOAD_MS}ms (the files are polled that often)`);
  }
}

/** The administrator's token must resist guessing; a token lifetime must be a real span. */
function checkScoresSettings(s: Settings, source: Readonly<Record<string, string | undefined>>): void {
  if (s.scoresAdminToken !== '' && s.scoresAdminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new SettingsError(`SCORES_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (it has ${s.scoresAdminToken.length}); use a long random value such as \`openssl rand -hex 32\``);
  }
  if (s.scoresTokenTtlMs < 1000) {
    throw new SettingsError(`invalid value for SCORES_TOKEN_TTL: ${JSON.stringify(source['SCORES_TOKEN_TTL'])} (expected a duration of at least 1s, such as 2160h)`);
  }
}

/** APIS: `alerts,scores` (the default), either one, or `none`. */
function readServedApis(value: string | undefined): ServedApi[] {
  if (value === undefined || value.trim() === '') return [...SERVED_APIS];
  if (value.trim() === 'none') return [];
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!SERVED_APIS.includes(name as ServedApi)) {
      throw new SettingsError(`invalid value for APIS: ${JSON.stringify(value)} (expected a comma-separated list of ${SERVED_APIS.join(', ')}, or none)`);
    }
  }
  return SERVED_APIS.filter((name) => names.includes(name));
}
