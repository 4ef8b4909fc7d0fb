import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portIsTaken } from '../../src/transports/free-port.js';
import { isRunning } from './process-memory.js';

/** Lowest port picked; below it are the well-known and registered ports other software may expect. */
const LOWEST = 10_000;

/**
 * Where test processes on this host mark the ports they picked: one file per port, holding the
 * picker's pid. A server a test kills and restarts leaves its port free in between, and another
 * test process picking at that moment must not take it.
 */
export const PORT_RESERVATIONS_DIR = join(tmpdir(), 'ratelimit-test-ports');

/**
 * A free port for a server a test starts only later, after the service has tried to reach it for
 * a while. Picked below the kernel's ephemeral range (`ip_local_port_range`), from which every
 * outgoing connection gets its local port: a port in that range may be taken meanwhile by any
 * connection on the host, even by the service's own attempt to reach it (given the same port as
 * its source, a connection to a port nobody listens on connects to itself). The port stays
 * reserved for this process until it exits, against every other test process's picks.
 */
export async function portForLater(host = '127.0.0.1'): Promise<number> {
  const [port] = await portsForLater(1, host);
  return port as number;
}

/** `count` distinct ports as portForLater picks them. */
export async function portsForLater(count: number, host = '127.0.0.1'): Promise<number[]> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  const ephemeralFrom = Number(range.trim().split(/\s+/)[0]);
  const ports: number[] = [];
  for (let tries = 0; ports.length < count; tries++) {
    if (tries === 100 * count) throw new Error(`no ${count} free ports between ${LOWEST} and ${ephemeralFrom}`);
    const port = LOWEST + Math.floor(Math.random() * (ephemeralFrom - LOWEST));
    if (!reservePort(port)) continue;
    if (await portIsTaken(host, port)) release(port);
    else ports.push(port);
  }
  return ports;
}

const reserved = new Set<number>();
process.once('exit', () => {
  for (const port of reserved) release(port);
});

/**
 * Marks `port` as this process's until it exits; false when a live process (this one included)
 * has marked it already.
 */
export function reservePort(port: number): boolean {
  if (reserved.has(port)) return false;
  mkdirSync(PORT_RESERVATIONS_DIR, { recursive: true });
  const file = join(PORT_RESERVATIONS_DIR, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      reserved.add(port);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = ownerOf(file);
      if (owner === 'gone') continue;
      // Empty: another process created it and has not written its pid yet.
      if (owner === 'being written' || isRunning(owner)) return false;
      // A process killed before its exit handler ran left it behind: taken over.
      rmSync(file, { force: true });
    }
  }
  return false;
}

function release(port: number): void {
  reserved.delete(port);
  rmSync(join(PORT_RESERVATIONS_DIR, String(port)), { force: true });
}

function ownerOf(file: string): number | 'gone' | 'being written' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 'gone';
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? pid : 'being written';
}
