import { randomUUID } from 'node:crypto';
import { compileMogrifier, parseTagList, type MogrifierSpec, type StatTag } from '../observability/index.js';
import { SettingsError, type EnvReader } from './env-reader.js';

/** Where statistics go, in upstream's order of precedence (DISABLE_STATS first, stdout last). */
export type StatsSinkKind = 'disabled' | 'tagged-metricsd' | 'metricsd' | 'prometheus' | 'stdout';
export type StatsProtocol = 'tcp' | 'udp';
export type TracingProtocol = 'http' | 'grpc';

/** Statistics sinks, Prometheus and tracing. Names: see README "Statistics" and "Tracing". */
export interface ObservabilitySettings {
  statsSink: StatsSinkKind;
  statsFlushIntervalMs: number;
  /** EXTRA_TAGS: added to every statistic. */
  extraTags: StatTag[];
  metricsdHost: string;
  metricsdPort: number;
  /** TCP by default for the plain daemon (as upstream's gostats sink), UDP for the tagged one. */
  metricsdProtocol: StatsProtocol;
  /** TAGGED_METRICSD_MOGRIFIERS, compiled, in the order listed. */
  mogrifiers: MogrifierSpec[];
  /** `host:port` of the USE_PROMETHEUS listener (`:9090` listens on every address). */
  prometheusAddr: string;
  prometheusPath: string;
  /** A statsd_exporter mapping file replacing the built-in mapping; '' keeps the built-in one. */
  prometheusMapperYaml: string;
  /** Timers in milliseconds instead of seconds (upstream's legacy unit of response_time). */
  prometheusResponseTimeAsMilliseconds: boolean;

  tracingEnabled: boolean;
  tracingExporterProtocol: TracingProtocol;
  tracingServiceName: string;
  tracingServiceNamespace: string;
  /** A random version 4 UUID per process unless set. */
  tracingServiceInstanceId: string;
  tracingSamplingRate: number;
}

const SINK_CONFLICT =
  'Error: unable to use more than one stats sink at the same time. Set one of USE_DOG_STATSD, USE_STATSD, USE_PROMETHEUS.';

/**
 * Upstream's precedence: DISABLE_STATS, then the tagged daemon, then the plain daemon, then
 * Prometheus, then standard output. Two sinks at once is an error, and since USE_METRICSD defaults
 * to true, selecting the tagged daemon or Prometheus also takes USE_METRICSD=false.
 */
function selectSink(env: EnvReader): StatsSinkKind {
  const disabled = env.bool(['DISABLE_STATS'], false);
  const tagged = env.bool(['USE_TAGGED_METRICSD', 'USE_DOG_STATSD'], false);
  const plain = env.bool(['USE_METRICSD', 'USE_STATSD'], true);
  const prometheus = env.bool(['USE_PROMETHEUS'], false);
  if (disabled) return 'disabled';
  const conflict = () => new SettingsError(`${SINK_CONFLICT} (here: USE_TAGGED_METRICSD=${tagged}, USE_METRICSD=${plain}, USE_PROMETHEUS=${prometheus})`);
  if (tagged) {
    if (plain || prometheus) throw conflict();
    return 'tagged-metricsd';
  }
  if (plain) {
    if (prometheus) throw conflict();
    return 'metricsd';
  }
  return prometheus ? 'prometheus' : 'stdout';
}

/**
 * TAGGED_METRICSD_MOGRIFIER_<NAME>_PATTERN / _NAME / _TAGS for each listed name, or upstream's
 * DOG_STATSD_MOGRIFIER_<NAME>_*. A mogrifier without a pattern or a name is an error, as upstream's.
 */
function readMogrifiers(env: EnvReader): MogrifierSpec[] {
  const list = env.string(['TAGGED_METRICSD_MOGRIFIERS', 'USE_DOG_STATSD_MOGRIFIERS'], '');
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.map((name) => {
    const setting = (suffix: string) => [`TAGGED_METRICSD_MOGRIFIER_${name}_${suffix}`, `DOG_STATSD_MOGRIFIER_${name}_${suffix}`];
    const variable = (suffix: string) => setting(suffix).find((n) => env.has(n)) ?? (setting(suffix)[0] as string);
    const pattern = env.string(setting('PATTERN'), '');
    const template = env.string(setting('NAME'), '');
    if (pattern === '') throw new SettingsError(`no PATTERN specified for mogrifier ${name} (${variable('PATTERN')})`);
    if (template === '') throw new SettingsError(`no NAME specified for mogrifier ${name} (${variable('NAME')})`);
    let tags: StatTag[];
    try {
      tags = parseTagList(env.string(setting('TAGS'), ''), { allowEmptyValue: false });
    } catch (error) {
      throw new SettingsError(`invalid value for ${variable('TAGS')}: ${(error as Error).message}`);
    }
    const spec: MogrifierSpec = { name, pattern, nameTemplate: template, tags };
    try {
      compileMogrifier(spec);
      return spec;
    } catch (error) {
      throw new SettingsError(`failed to compile pattern for ${name}: ${pattern}: ${(error as Error).message}`);
    }
  });
}

/** `host:port` with an optional host (`:9090`); the port must be a number. */
function checkListenAddress(value: string, variable: string): string {
  if (!/^(\[[^\]]*\]|[^:]*):\d{1,5}$/.test(value) || Number(value.slice(value.lastIndexOf(':') + 1)) > 65535) {
    throw new SettingsError(`invalid value for ${variable}: ${JSON.stringify(value)} (expected host:port or :port)`);
  }
  return value;
}

export function readObservabilitySettings(env: EnvReader): ObservabilitySettings {
  const statsSink = selectSink(env);
  const flush = env.durationMs(['STATS_FLUSH_INTERVAL'], 10_000);
  if (flush < 1) throw new SettingsError(`invalid value for STATS_FLUSH_INTERVAL: ${JSON.stringify(env.string(['STATS_FLUSH_INTERVAL'], ''))} (expected a positive duration)`);
  let extraTags: StatTag[];
  try {
    extraTags = parseTagList(env.string(['EXTRA_TAGS'], ''), { allowEmptyValue: true });
  } catch (error) {
    throw new SettingsError(`invalid value for EXTRA_TAGS: ${(error as Error).message}`);
  }
  const path = env.string(['PROMETHEUS_PATH'], '/metrics');
  if (!path.startsWith('/')) throw new SettingsError(`invalid value for PROMETHEUS_PATH: ${JSON.stringify(path)} (expected a path starting with /)`);
  return {
    statsSink,
    statsFlushIntervalMs: flush,
    extraTags,
    metricsdHost: env.string(['METRICSD_HOST', 'STATSD_HOST'], 'localhost'),
    metricsdPort: env.port(['METRICSD_PORT', 'STATSD_PORT'], 8125),
    metricsdProtocol: env.choice(['METRICSD_PROTOCOL'], statsSink === 'tagged-metricsd' ? 'udp' : 'tcp', ['tcp', 'udp'], true).toLowerCase() as StatsProtocol,
    mogrifiers: readMogrifiers(env),
    prometheusAddr: checkListenAddress(env.string(['PROMETHEUS_ADDR'], ':9090'), 'PROMETHEUS_ADDR'),
    prometheusPath: path,
    prometheusMapperYaml: env.string(['PROMETHEUS_MAPPER_YAML'], ''),
    prometheusResponseTimeAsMilliseconds: env.bool(['PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS'], false),

    tracingEnabled: env.bool(['TRACING_ENABLED'], false),
    tracingExporterProtocol: env.choice(['TRACING_EXPORTER_PROTOCOL'], 'http', ['http', 'grpc'], true).toLowerCase() as TracingProtocol,
    tracingServiceName: env.string(['TRACING_SERVICE_NAME'], 'RateLimit'),
    tracingServiceNamespace: env.string(['TRACING_SERVICE_NAMESPACE'], ''),
    tracingServiceInstanceId: env.string(['TRACING_SERVICE_INSTANCE_ID'], '') || randomUUID(),
    tracingSamplingRate: env.ratio(['TRACING_SAMPLING_RATE'], 1),
  };
}
