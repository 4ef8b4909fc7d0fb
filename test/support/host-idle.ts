/**
 * How idle the host's CPUs were between two looks, from the first line of /proc/stat: the share
 * of all CPU time (every CPU, since boot) spent idle or waiting for I/O.
 */
import { readFileSync } from 'node:fs';

export interface CpuTimes {
  /** idle + iowait, in clock ticks. */
  idle: number;
  /** Every field of the line, in clock ticks. */
  total: number;
}

/** The times of the `cpu` line (all CPUs together) of a /proc/stat text. */
export function cpuTimes(procStat: string): CpuTimes {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) throw new Error('no cpu line in /proc/stat');
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((sum, n) => sum + n, 0) };
}

/** The idle share of the CPU time between two readings; undefined when no time passed. */
export function idleShare(before: CpuTimes, after: CpuTimes): number | undefined {
  const total = after.total - before.total;
  return total > 0 ? (after.idle - before.idle) / total : undefined;
}

export class HostIdle {
  private last = cpuTimes(readFileSync('/proc/stat', 'utf8'));

  /** The idle share since the last call (or since this was made). */
  sinceLastLook(): number | undefined {
    const now = cpuTimes(readFileSync('/proc/stat', 'utf8'));
    const share = idleShare(this.last, now);
    this.last = now;
    return share;
  }
}
