/**
 * Debian's Prometheus (2.42) on a free port on 127.0.0.1: a real alert producer that evaluates
 * one rule group every second and posts the firing alerts to an Alertmanager API v2 (the real
 * Alertmanager or the service), and a real scraper of `/metrics` pages, queried through its API. Everything lives in a fresh temp directory; the tap test given to
 * `startRealPrometheus` gets a teardown that stops the process and removes that directory.
 *
 *   const prom = await startRealPrometheus(t, {
 *     alertmanager: `127.0.0.1:${am.port}`,
 *     ruleGroup: alwaysFiring('HarnessAlwaysFiring', { severity: 'info' }),
 *   });
 *
 * Needs /usr/bin/prometheus (test/ensure-packages.sh installs it).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../src/transports/free-port.js';
import { ManagedProcess } from './managed-process.js';
import { untilReady } from './real-alertmanager.js';
import { httpRequest, type HttpResult } from './http-request.js';
import type { Teardown } from './teardown.js';
import { makeTempDir } from './temp-dir.js';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';

const HOST = '127.0.0.1';
/** Prometheus opens (and on first start creates) its TSDB before it is ready. */
const READY_TIMEOUT_MS = 30_000;
const TERMINATE_GRACE_MS = 10_000;
const START_ATTEMPTS = 3;

/** One alerting rule, as in a Prometheus rule file. */
export interface AlertingRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  /** Default: the global evaluation interval. */
  interval?: string;
  rules: AlertingRule[];
}

/** A group with one alert that fires at the first evaluation and never resolves (`vector(1)`). */
export function alwaysFiring(alert: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): RuleGroup {
  return { name: `${alert}-group`, rules: [{ alert, expr: 'vector(1)', labels, annotations }] };
}

/** A target Prometheus scrapes (every `scrapeInterval`). */
export interface ScrapeTarget {
  job: string;
  /** `host:port`. */
  target: string;
  /** Default `/metrics`. */
  path?: string;
}

export interface RealPrometheusOptions {
  /** `host:port` of the Alertmanager API; absent: no alerting. */
  alertmanager?: string;
  /** `path_prefix` for that Alertmanager (alerts go to `<prefix>/api/v2/alerts`); default none. */
  pathPrefix?: string;
  /** Absent: no rules. */
  ruleGroup?: RuleGroup;
  /** Scrape jobs; absent: none. */
  scrape?: readonly ScrapeTarget[];
  /** `global.scrape_interval`; default 1s. */
  scrapeInterval?: string;
  /** `global.evaluation_interval`; default 1s. */
  evaluationInterval?: string;
  /**
   * `--rules.alert.resend-delay`; default 1s here (Prometheus's own default is 1m). Prometheus
   * drops the alerts of an evaluation that happens before it has discovered its Alertmanagers
   * (its discovery publishes at most every 5 s) and sends them again only after this delay, so
   * with 1m the first alert could arrive a minute late. Note that `endsAt` of a firing alert is
   * `now + 4 × max(evaluation interval, resend delay)`: pass '1m' for Prometheus's own timing.
   */
  resendDelay?: string;
  /** `external_labels`, added to every alert Prometheus sends. */
  externalLabels?: Record<string, string>;
  /** `taskset -c` CPU list (benchmarks pin servers apart from load generators); absent: not pinned. */
  cpus?: string;
  /** Extra flags. */
  args?: readonly string[];
}

export interface RealPrometheus {
  readonly url: string;
  readonly port: number;
  readonly logs: string;
  readonly dir: string;
  readonly process: ManagedProcess;
  /** GET on Prometheus's own HTTP API, e.g. `/api/v1/alerts`, `/api/v1/alertmanagers`. */
  request(path: string): Promise<HttpResult>;
  /** An instant query (`/api/v1/query`): each series' labels and value. */
  query(expr: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  stop(): Promise<void>;
}

/** prometheus.yml: the rule file and the one Alertmanager, and the scrape jobs, each when given. */
export function prometheusConfig(options: RealPrometheusOptions, ruleFile: string): string {
  const global: Record<string, unknown> = { evaluation_interval: options.evaluationInterval ?? '1s', scrape_interval: options.scrapeInterval ?? '1s' };
  if (options.externalLabels !== undefined) global['external_labels'] = options.externalLabels;
  const config: Record<string, unknown> = { global };
  if (options.ruleGroup !== undefined) config['rule_files'] = [ruleFile];
  if (options.alertmanager !== undefined) {
    const alertmanager: Record<string, unknown> = {
      api_version: 'v2',
      scheme: 'http',
      timeout: '5s',
      static_configs: [{ targets: [options.alertmanager] }],
    };
    if (options.pathPrefix !== undefined) alertmanager['path_prefix'] = options.pathPrefix;
    config['alerting'] = { alertmanagers: [alertmanager] };
  }
  if (options.scrape !== undefined) {
    config['scrape_configs'] = options.scrape.map((s) => ({ job_name: s.job, metrics_path: s.path ?? '/metrics', static_configs: [{ targets: [s.target] }] }));
  }
  return stringify(config);
}

async function startOnce(dir: string, configFile: string, options: RealPrometheusOptions): Promise<{ proc: ManagedProcess; port: number } | 'port taken'> {
  const port = await freePort(HOST);
  const proc = new ManagedProcess({
    command: PROMETHEUS_BIN,
    args: [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=${HOST}:${port}`,
      // Explicit, so generatorURL in the alerts does not carry the machine's host name.
      `--web.external-url=http://${HOST}:${port}/`,
      `--rules.alert.resend-delay=${options.resendDelay ?? '1s'}`,
      ...(options.args ?? []),
    ],
    inheritEnv: false,
    cpus: options.cpus,
  });
  const failure = await untilReady(proc, `http://${HOST}:${port}/-/ready`, READY_TIMEOUT_MS);
  if (failure === undefined) return { proc, port };
  await proc.stop(TERMINATE_GRACE_MS);
  if (/address already in use/.test(proc.output)) return 'port taken';
  throw new Error(`Prometheus did not start: ${failure}; output:\n${proc.output}`);
}

/** Starts Prometheus and waits until `/-/ready` answers 200 (rules are evaluated from then on). */
export async function startRealPrometheus(t: Teardown, options: RealPrometheusOptions): Promise<RealPrometheus> {
  const temp = await makeTempDir('prometheus-real-');
  let proc: ManagedProcess | undefined;
  t.teardown(async () => {
    await proc?.stop(TERMINATE_GRACE_MS);
    await temp.remove();
  });
  const ruleFile = join(temp.path, 'rules.yml');
  const configFile = join(temp.path, 'prometheus.yml');
  if (options.ruleGroup !== undefined) await writeFile(ruleFile, stringify({ groups: [options.ruleGroup] }));
  await writeFile(configFile, prometheusConfig(options, ruleFile));

  let started: Awaited<ReturnType<typeof startOnce>> = 'port taken';
  for (let attempt = 0; attempt < START_ATTEMPTS && started === 'port taken'; attempt++) {
    started = await startOnce(temp.path, configFile, options);
  }
  if (started === 'port taken') throw new Error(`Prometheus: no free port after ${START_ATTEMPTS} attempts`);
  const { port } = started;
  const running = started.proc;
  proc = running;
  const url = `http://${HOST}:${port}`;
  return {
    url,
    port,
    dir: temp.path,
    process: running,
    get logs() {
      return running.output;
    },
    request: (path) => httpRequest(`${url}${path}`),
    async query(expr) {
      const result = await httpRequest(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = result.json as { status?: string; data?: { result?: Array<{ metric: Record<string, string>; value: [number, string] }> } } | undefined;
      if (result.status !== 200 || body?.status !== 'success') throw new Error(`query ${expr}: ${result.status} ${result.text}`);
      return (body.data?.result ?? []).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop: () => running.stop(TERMINATE_GRACE_MS),
  };
}
