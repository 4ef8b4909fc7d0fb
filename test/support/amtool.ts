/**
 * Runs Debian's amtool (0.25) against any Alertmanager API base URL: the real Alertmanager or
 * the service. amtool is a short-lived command, so this is a plain child process with a time
 * limit, not a ManagedProcess.
 *
 *   const r = await amtool(am.url, ['alert', 'add', 'alertname=x', 'severity=warning']);
 *   // r.code 0; amtool ran as `amtool --alertmanager.url=<url> --no-version-check alert add ...`
 *
 * The environment is clean: PATH, LANG, TZ=UTC (amtool prints times in the local zone, e.g.
 * `2026-11-25 04:04:51 UTC`), and HOME set to an empty temp directory, so no user config file
 * can change flags. Debian's amtool reads `$HOME/.config/prometheus/amtool.yml`, then
 * `/etc/prometheus/amtool.yml` (upstream: ~/.config/amtool/config.yml, /etc/amtool/config.yml);
 * the packages install neither. Without any URL, amtool talks to http://localhost:9093/.
 *
 * Needs /usr/bin/amtool (test/ensure-packages.sh installs prometheus-alertmanager, which has it).
 */
import { runCommand } from './command-runner.js';
import { makeTempDir } from './temp-dir.js';

export const AMTOOL_BIN = '/usr/bin/amtool';

const DEFAULT_TIMEOUT_MS = 20_000;

export interface AmtoolOptions {
  /** Default true: put `--alertmanager.url=<baseUrl>` first. False: `args` say it themselves, or not at all. */
  urlFlag?: boolean;
  /**
   * Default false: `--no-version-check`. amtool 0.25 otherwise GETs /api/v2/status first and
   * warns (on stderr) when the version it reports is not its own.
   */
  versionCheck?: boolean;
  /**
   * Text written to amtool's stdin, then closed (e.g. `silence import` without a file). Absent:
   * stdin is /dev/null, so a command that would read a terminal ends at once instead of hanging.
   */
  stdin?: string;
  /** HOME for amtool (e.g. one with .config/prometheus/amtool.yml); default a fresh empty directory. */
  home?: string;
  /** Added to the clean environment. */
  env?: Record<string, string>;
  /** amtool is killed and the call rejects after this long; default 20 s. */
  timeoutMs?: number;
}

export interface AmtoolResult {
  /** Exit code; amtool exits 1 on errors (kingpin usage errors too). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command line amtool gets for `args` (without the binary), as `amtool` builds it. */
export function amtoolArgs(baseUrl: string, args: readonly string[], options: AmtoolOptions = {}): string[] {
  return [
    ...((options.urlFlag ?? true) ? [`--alertmanager.url=${baseUrl}`] : []),
    ...((options.versionCheck ?? false) ? [] : ['--no-version-check']),
    ...args,
  ];
}

/** Runs amtool; resolves whatever the exit code, rejects only when it could not run or timed out. */
export async function amtool(baseUrl: string, args: readonly string[], options: AmtoolOptions = {}): Promise<AmtoolResult> {
  const ownHome = options.home === undefined ? await makeTempDir('amtool-home-') : undefined;
  try {
    const env: Record<string, string> = { HOME: options.home ?? (ownHome as { path: string }).path, LANG: 'C.UTF-8', TZ: 'UTC' };
    const path = process.env['PATH'];
    if (path !== undefined) env['PATH'] = path;
    return await run(amtoolArgs(baseUrl, args, options), { ...env, ...options.env }, options);
  } finally {
    await ownHome?.remove();
  }
}

async function run(args: string[], env: Record<string, string>, options: AmtoolOptions): Promise<AmtoolResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const result = await runCommand(AMTOOL_BIN, args, { env, input: options.stdin, timeoutMs });
  const { code, stdout, stderr } = result;
  if (result.spawnError !== undefined) throw new Error(`amtool ${args.join(' ')}: ${result.spawnError}`);
  if (result.timedOut) throw new Error(`amtool ${args.join(' ')} still running after ${timeoutMs} ms; stdout: ${stdout} stderr: ${stderr}`);
  return { code, stdout, stderr };
}
