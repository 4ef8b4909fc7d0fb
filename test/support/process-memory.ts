/** What the kernel says of a process under test: its memory and CPU time (Linux /proc), and the programs it runs. */
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessMemory {
  /** Resident now (VmRSS), MiB. */
  rssMiB: number;
  /** The most ever resident (VmHWM), MiB: a peak between two reads cannot hide from it. */
  peakMiB: number;
}

export async function memoryOf(pid: number): Promise<ProcessMemory> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  // A process that has exited but not been reaped yet (a zombie) has no memory lines: it holds none.
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** Pids of the running children of `pid` whose program name (comm) is `name`. */
export async function childrenNamed(pid: number, name: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces and parentheses, so split at the last ')'.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && comm === name) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Linux's USER_HZ: /proc reports CPU time in hundredths of a second. */
const TICK_MS = 10;

/** CPU time (user and system, every thread) the process has used so far, in milliseconds. */
export async function cpuTimeMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
