export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'text' | 'json';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /**
   * News an operator wants at the default level (warn) though nothing is wrong, such as the
   * service being ready: printed at every level but error, as level `info`.
   */
  notice(msg: string, fields?: LogFields): void;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };
/** logrus spells warn as `warning`; keep its names so existing log pipelines keep parsing. */
const LOGRUS_NAME: Readonly<Record<LogLevel, string>> = { debug: 'debug', info: 'info', warn: 'warning', error: 'error' };

type Write = (line: string) => void;

/**
 * Upstream-compatible log lines: text is logrus' `time="…" level=… msg="…"` with extra
 * fields as `key=value`; json has `@timestamp`, `@message` and `level` plus the fields.
 */
export function createLogger(level: LogLevel, format: LogFormat, write: Write = (l) => process.stderr.write(l)): Logger {
  const min = RANK[level];
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields, rank = RANK[lvl]): void => {
    if (rank < min) return;
    const time = new Date().toISOString();
    if (format === 'json') {
      write(JSON.stringify({ '@timestamp': time, '@message': msg, level: LOGRUS_NAME[lvl], ...fields }) + '\n');
      return;
    }
    let line = `time=${JSON.stringify(time)} level=${LOGRUS_NAME[lvl]} msg=${JSON.stringify(msg)}`;
    if (fields !== undefined) {
      for (const [key, value] of Object.entries(fields)) {
        line += ` ${key}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
      }
    }
    write(line + '\n');
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    notice: (msg, fields) => emit('info', msg, fields, RANK.warn),
  };
}

/** A logger that discards everything (tests, benchmarks). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, notice() {} };
