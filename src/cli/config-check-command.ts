/**
 * `ratelimit-config-check`: validates a directory of rate limit configuration files with the
 * service's own loader and its exact messages (upstream's `ratelimit_config_check`).
 *
 *   checking rate limit configs...
 *   loading config directory: DIR
 *   opening config file: DIR/a.yaml        (one line per file, in name order)
 *   all rate limit configs ok              (exit 0)
 *   error loading rate limit configs: DIR/a.yaml: <loader message>   (exit 1)
 *
 * Which files: every regular file directly in DIR (symlinks followed), whatever its name or
 * extension and including dot files, sorted by name as Go's os.ReadDir does. Subdirectories
 * are not read (no recursion, unlike the service's loader) and are reported as
 * `skipping directory: DIR/sub`: upstream reads one directory and fails on a subdirectory
 * (`read DIR/sub: is a directory`); skipping lets a Kubernetes ConfigMap mount (`..data/`,
 * `..2024_01_01_00_00_00.1/`, plus symlinked files) be checked once per file, while the line
 * says what was left out. We chose this over the loader's recursive `readConfigSources`
 * because the tool must name and open each file by its path.
 *
 * Each file is named for the loader by its path, `join(DIR, name)`, as upstream names it, so
 * loader messages read `DIR/a.yaml: invalid rate limit unit 'foo'`.
 *
 * With `-strict-upstream`, a configuration the loader accepts is refused at its first extension
 * key (README, "Beyond upstream"), named with its file and line, so it stays one upstream loads.
 *
 * Flag errors, a missing `-config_dir` and arguments after the flags print the usage on stderr
 * and exit 2; `-h` exits 0.
 * Everything else goes to stdout, as upstream prints it.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { findExtensionKey, loadConfig, type ConfigSource } from '../config/index.js';
import { FlagSet, flagExitCode } from './flags.js';
import { goFileError, type CliIo } from './io.js';

export const CONFIG_CHECK_PROGRAM = 'ratelimit-config-check';

/** Runs the command; resolves with the exit code. */
export async function runConfigCheck(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = new FlagSet(CONFIG_CHECK_PROGRAM);
  const configDir = flags.string('config_dir', '', 'path to directory containing rate limit configs');
  const merge = flags.bool('merge_domain_configs', false, 'whether to merge configurations, referencing the same domain');
  const strictUpstream = flags.bool('strict-upstream', false, "refuse this service's extension keys (rate_limits, algorithm), which upstream ratelimit does not accept");
  let outcome = flags.parse(argv);
  if (outcome.status === 'ok') {
    // Go would ignore arguments after the flags; `-merge_domain_configs false` would then
    // silently merge. They are refused instead.
    if (outcome.args.length > 0) outcome = flags.failure(`unexpected argument: ${outcome.args[0] as string}`);
    else if (configDir.value === '') outcome = flags.failure('missing required flag: -config_dir');
  }
  if (outcome.status !== 'ok') {
    io.stderr(outcome.stderr);
    return flagExitCode(outcome);
  }

  const dir = configDir.value;
  io.stdout('checking rate limit configs...\n');
  io.stdout(`loading config directory: ${dir}\n`);

  let names: string[];
  try {
    names = (await readdir(dir)).sort(byBytes);
  } catch (error) {
    io.stdout(`error opening directory ${dir}: ${goFileError('open', dir, error)}\n`);
    return 1;
  }

  const sources: ConfigSource[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // A dangling symlink is a file that cannot be opened: reported by the read below.
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) {
      io.stdout(`skipping directory: ${path}\n`);
      continue;
    }
    if (info !== undefined && !info.isFile()) continue; // sockets, fifos, devices
    io.stdout(`opening config file: ${path}\n`);
    try {
      sources.push({ name: path, text: await readFile(path, 'utf8') });
    } catch (error) {
      io.stdout(`error reading file ${path}: ${goFileError('open', path, error)}\n`);
      return 1;
    }
  }

  const result = loadConfig(sources, { mergeDomainConfigs: merge.value });
  if (!result.ok) {
    io.stdout(`error loading rate limit configs: ${result.error.message}\n`);
    return 1;
  }
  if (strictUpstream.value) {
    for (const source of sources) {
      const extension = findExtensionKey(source.text);
      if (extension === undefined) continue;
      io.stdout(`error loading rate limit configs: ${source.name}: ${extension} (-strict-upstream)\n`);
      return 1;
    }
  }
  io.stdout('all rate limit configs ok\n');
  return 0;
}

/** Go sorts directory entries by name bytes; for UTF-8 that is code point order. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
