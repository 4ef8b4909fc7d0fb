/** One load measurement of one target: throughput, latency percentiles and what went wrong. */
export interface Measurement {
  /** The load generator command line (for the record). */
  command: string;
  /** Completed requests per second over the measured duration. */
  reqPerSec: number;
  p50Us: number;
  p99Us: number;
  /** The slowest request, where the tool logs every request (h2load with a log file). */
  maxUs?: number;
  /** Responses with status 200 (null: the tool cannot tell 200 from other 2xx). */
  status200: number | null;
  /** Responses with status 429 (null: the tool cannot tell). */
  status429: number | null;
  /** Every response that is neither 200 nor 429, socket errors, timeouts, and service-side errors. */
  errors: number;
  /** How `errors` splits up, e.g. { non2xx: 0, read: 0, timeout: 0 }. */
  errorDetail: Record<string, number>;
  /** For fixed-rate runs: the rate asked for. */
  targetRate?: number;
  /**
   * Server CPU time (user + system, all threads) per completed request, in microseconds. Less moved
   * than req/s when the shared host slows the machine down.
   */
  cpuUsPerRequest?: number;
}
