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

/**
 * Pids of the running children of `pid` whose program name (comm) is `name`. Read from the
 * `children` file of each of its threads (any thread may start a process): a few reads where
 * scanning all of /proc reads one file per process on the host, which a watcher polling it
 * keeps a core busy with.
 */
export async function childrenNamed(pid: number, name: string): Promise<number[]> {
  return (await childrenOf(pid)).filter((child) => child.name === name).map((child) => child.pid);
}

/** The running children of `pid` (read as childrenNamed reads them), with their program names. */
export async function childrenOf(pid: number): Promise<Array<{ pid: number; name: string }>> {
  const found: Array<{ pid: number; name: string }> = [];
  const threads = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const thread of threads) {
    const children = await readFile(`/proc/${pid}/task/${thread}/children`, 'utf8').catch(() => '');
    for (const child of children.split(' ')) {
      if (child === '') continue;
      // The process may end while we look.
      const comm = await readFile(`/proc/${child}/comm`, 'utf8').catch(() => undefined);
      if (comm !== undefined) found.push({ pid: Number(child), name: comm.trimEnd() });
    }
  }
  return found;
}

/** Whether a process with this pid runs (one under another user counts: signalling it is refused, not unknown). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
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
