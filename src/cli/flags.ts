/**
 * A small command-line flag parser with the semantics of Go's `flag` package, which upstream's
 * helper binaries (`ratelimit_client`, `ratelimit_config_check`) use, so the same command lines
 * work here:
 *
 * - `-flag value`, `-flag=value`, `--flag value`, `--flag=value`;
 * - booleans only as `-flag` or `-flag=<bool>` (`1 t T TRUE true True 0 f F FALSE false False`):
 *   `-flag false` sets the flag and stops parsing at the positional argument `false`, as in Go;
 * - parsing stops at the first argument that is not a flag (`-` alone is one) or after `--`;
 * - a non-boolean flag takes the next argument as its value even when it starts with `-`;
 * - a repeated flag is set again (scalars: the last one wins; `func` flags see every value);
 * - `-h`, `-help` (or `--h`, `--help`) ask for the usage text (Go exits 0 after printing it);
 * - errors read as Go's (`flag provided but not defined: -x`, `flag needs an argument: -x`,
 *   `invalid value "v" for flag -x: <err>`, `invalid boolean value "v" for -x: parse error`,
 *   `bad flag syntax: ---x`) and are followed by the usage text; Go exits 2.
 *
 * The usage text is Go's `Usage of <program>:` followed by `PrintDefaults` output.
 *
 *   const flags = new FlagSet('ratelimit-config-check');
 *   const dir = flags.string('config_dir', '', 'path to directory containing rate limit configs');
 *   const outcome = flags.parse(process.argv.slice(2));
 *   if (outcome.status !== 'ok') return reportFlagOutcome(outcome, io); // 0 for help, 2 for errors
 *   use(dir.value);
 */
import { parseDurationMs } from '../settings/duration.js';

/** A parsed flag: `value` holds the default until the command line sets it. */
export interface Flag<T> {
  readonly name: string;
  value: T;
  /** Whether the command line named this flag at least once. */
  isSet: boolean;
}

/** Result of `FlagSet.parse`. `stderr` is the text Go would write (message and usage). */
export type FlagOutcome =
  | { status: 'ok'; /** Arguments left after the flags. */ args: string[] }
  | { status: 'help'; stderr: string }
  | { status: 'error'; message: string; stderr: string };

/** Go's exit code for a flag outcome: 0 after `-h`, 2 after an error. */
export function flagExitCode(outcome: Exclude<FlagOutcome, { status: 'ok' }>): number {
  return outcome.status === 'help' ? 0 : 2;
}

/** Checks a parsed value; returns an error message, or undefined when the value is fine. */
export type Check<T> = (value: T) => string | undefined;

type Kind = 'string' | 'bool' | 'duration' | 'value';

interface Definition {
  name: string;
  usage: string;
  kind: Kind;
  /** Go's `DefValue`: the default as text. */
  defValue: string;
  /** Whether the default is the type's zero value (Go then prints no `(default ...)`). */
  isZero: boolean;
  /** Sets the value from text; returns an error message on failure. */
  set(text: string): string | undefined;
}

const HELP_NAMES = new Set(['h', 'help']);

/** Go's `strconv.ParseBool`. */
export function parseGoBool(text: string): boolean | undefined {
  switch (text) {
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'true':
    case 'True':
      return true;
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'false':
    case 'False':
      return false;
    default:
      return undefined;
  }
}

/**
 * Go's `time.ParseDuration` (`300ms`, `5s`, `1m30s`, `1.5h`, `0`) in milliseconds, or undefined.
 * Unlike the settings reader, surrounding spaces are not accepted (Go's flag does not trim).
 */
export function parseGoDuration(text: string): number | undefined {
  if (text !== text.trim()) return undefined;
  return parseDurationMs(text);
}

/** Go's `time.Duration.String()` for a number of milliseconds: `5s`, `1m30s`, `300ms`, `0s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) {
    if (rest >= 1) return `${sign}${trimNumber(rest)}ms`;
    if (rest >= 1e-3) return `${sign}${trimNumber(rest * 1e3)}µs`;
    return `${sign}${trimNumber(rest * 1e6)}ns`;
  }
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = `${trimNumber(rest / 1000)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** Up to nanosecond precision, without trailing zeros. */
function trimNumber(n: number): string {
  return String(Number(n.toFixed(9)));
}

export class FlagSet {
  private readonly definitions = new Map<string, Definition>();
  private readonly flags = new Map<string, Flag<unknown>>();

  /** `program` names the command in `Usage of <program>:`. */
  constructor(readonly program: string) {}

  string(name: string, defaultValue: string, usage: string, check?: Check<string>): Flag<string> {
    const flag = this.flag(name, defaultValue);
    this.define({
      name,
      usage,
      kind: 'string',
      defValue: defaultValue,
      isZero: defaultValue === '',
      set: (text) => {
        const problem = check?.(text);
        if (problem !== undefined) return problem;
        flag.value = text;
        return undefined;
      },
    });
    return flag;
  }

  bool(name: string, defaultValue: boolean, usage: string): Flag<boolean> {
    const flag = this.flag(name, defaultValue);
    this.define({
      name,
      usage,
      kind: 'bool',
      defValue: String(defaultValue),
      isZero: !defaultValue,
      set: (text) => {
        const value = parseGoBool(text);
        if (value === undefined) return 'parse error';
        flag.value = value;
        return undefined;
      },
    });
    return flag;
  }

  /** A duration flag; the value is in milliseconds. */
  duration(name: string, defaultMs: number, usage: string, check?: Check<number>): Flag<number> {
    const flag = this.flag(name, defaultMs);
    this.define({
      name,
      usage,
      kind: 'duration',
      defValue: formatGoDuration(defaultMs),
      isZero: defaultMs === 0,
      set: (text) => {
        const value = parseGoDuration(text);
        if (value === undefined) return 'parse error';
        const problem = check?.(value);
        if (problem !== undefined) return problem;
        flag.value = value;
        return undefined;
      },
    });
    return flag;
  }

  /**
   * Go's `flag.Func`: `apply` runs for every occurrence (so the flag can repeat) and throws an
   * Error whose message is the reason a value is invalid.
   */
  func(name: string, usage: string, apply: (text: string) => void): Flag<string[]> {
    const flag = this.flag<string[]>(name, []);
    this.define({
      name,
      usage,
      kind: 'value',
      defValue: '',
      isZero: true,
      set: (text) => {
        try {
          apply(text);
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
        flag.value.push(text);
        return undefined;
      },
    });
    return flag;
  }

  /** Parses `argv` (without the node and script paths). */
  parse(argv: readonly string[]): FlagOutcome {
    let i = 0;
    while (i < argv.length) {
      const arg = argv[i] as string;
      if (arg.length < 2 || !arg.startsWith('-')) break;
      let dashes = 1;
      if (arg[1] === '-') {
        dashes = 2;
        if (arg.length === 2) {
          i++;
          break;
        }
      }
      const body = arg.slice(dashes);
      if (body.startsWith('-') || body.startsWith('=')) return this.failure(`bad flag syntax: ${arg}`);
      i++;
      const eq = body.indexOf('=');
      const name = eq < 0 ? body : body.slice(0, eq);
      const inline = eq < 0 ? undefined : body.slice(eq + 1);
      const definition = this.definitions.get(name);
      if (definition === undefined) {
        if (HELP_NAMES.has(name)) return { status: 'help', stderr: this.usage() };
        return this.failure(`flag provided but not defined: -${name}`);
      }
      const flag = this.flags.get(name) as Flag<unknown>;
      if (definition.kind === 'bool') {
        const problem = definition.set(inline ?? 'true');
        if (problem !== undefined) {
          return this.failure(inline === undefined ? `invalid boolean flag ${name}: ${problem}` : `invalid boolean value ${goQuote(inline)} for -${name}: ${problem}`);
        }
      } else {
        let value = inline;
        if (value === undefined) {
          if (i >= argv.length) return this.failure(`flag needs an argument: -${name}`);
          value = argv[i] as string;
          i++;
        }
        const problem = definition.set(value);
        if (problem !== undefined) return this.failure(`invalid value ${goQuote(value)} for flag -${name}: ${problem}`);
      }
      flag.isSet = true;
    }
    return { status: 'ok', args: argv.slice(i) };
  }

  /** An error outcome for a problem found after parsing (for example a missing flag). */
  failure(message: string): { status: 'error'; message: string; stderr: string } {
    return { status: 'error', message, stderr: `${message}\n${this.usage()}` };
  }

  /** `Usage of <program>:` and every flag, sorted by name, as Go's `PrintDefaults` writes them. */
  usage(): string {
    let out = `Usage of ${this.program}:\n`;
    const names = [...this.definitions.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const definition = this.definitions.get(name) as Definition;
      const { typeName, usage } = unquoteUsage(definition);
      let line = `  -${name}`;
      if (typeName !== '') line += ` ${typeName}`;
      line += line.length <= 4 ? '\t' : '\n    \t';
      line += usage.split('\n').join('\n    \t');
      if (!definition.isZero) line += definition.kind === 'string' ? ` (default ${goQuote(definition.defValue)})` : ` (default ${definition.defValue})`;
      out += `${line}\n`;
    }
    return out;
  }

  private flag<T>(name: string, value: T): Flag<T> {
    if (this.definitions.has(name)) throw new Error(`${this.program} flag redefined: ${name}`);
    const flag: Flag<T> = { name, value, isSet: false };
    this.flags.set(name, flag as Flag<unknown>);
    return flag;
  }

  private define(definition: Definition): void {
    this.definitions.set(definition.name, definition);
  }
}

/** Go's `flag.UnquoteUsage`: a `back-quoted` word in the usage names the value. */
function unquoteUsage(definition: Definition): { typeName: string; usage: string } {
  const usage = definition.usage;
  const start = usage.indexOf('`');
  if (start >= 0) {
    const end = usage.indexOf('`', start + 1);
    if (end >= 0) return { typeName: usage.slice(start + 1, end), usage: usage.slice(0, start) + usage.slice(start + 1, end) + usage.slice(end + 1) };
  }
  const typeName = { string: 'string', bool: '', duration: 'duration', value: 'value' }[definition.kind];
  return { typeName, usage };
}

/** Go's `%q` for the strings flags print: JSON quoting is the same for printable text. */
function goQuote(text: string): string {
  return JSON.stringify(text);
}
