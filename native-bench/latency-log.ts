/**
 * h2load `--log-file` rows: `start-µs-since-epoch \t status \t µs-until-end-of-response`.
 * Exact p50/p99 (nearest rank), the slowest, and a status count from them; status -1 is a failed stream.
 */
import { readFile } from 'node:fs/promises';

export interface LatencyLog {
  count: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
  statuses: Map<number, number>;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

export async function readLatencyLog(path: string): Promise<LatencyLog> {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  const latencies = new Float64Array(lines.length);
  const statuses = new Map<number, number>();
  let n = 0;
  for (const line of lines) {
    if (line === '') continue;
    const [, status, micros] = line.split('\t');
    const code = Number(status);
    statuses.set(code, (statuses.get(code) ?? 0) + 1);
    latencies[n++] = Number(micros);
  }
  const sorted = latencies.subarray(0, n).sort();
  return { count: n, p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), maxUs: n === 0 ? Number.NaN : (sorted[n - 1] as number), statuses };
}
