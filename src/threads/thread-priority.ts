import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the calling thread only (Linux: `setpriority` on the thread's
 * own id, which /proc/thread-self names). The API thread runs at a higher nice value than the
 * threads that answer decisions, so when cores are short the kernel runs decisions first.
 * Returns why it could not (another OS, no /proc), for a log line; raising one's own nice value
 * needs no privilege.
 */
export function niceThisThread(nice: number): string | undefined {
  if (nice === 0) return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return 'no thread id in /proc/thread-self';
    setPriority(tid, nice);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
