import type { LogFields, Logger } from '../../src/observability/index.js';

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields: LogFields | undefined;
}

/** A logger that keeps every line in `records`, for tests that read what was logged. */
export function recordingLogger(records: LogRecord[]): Logger {
  const log = (level: LogRecord['level']) => (msg: string, fields?: LogFields) => {
    records.push({ level, msg, fields });
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), notice: log('info') };
}
