import { readFile } from 'node:fs/promises';
import { portIsTaken } from '../../src/transports/free-port.js';

/** Lowest port picked; below it are the well-known and registered ports other software may expect. */
const LOWEST = 10_000;

/**
 * A free port for a server a test starts only later, after the service has tried to reach it for
 * a while. Picked below the kernel's ephemeral range (`ip_local_port_range`), from which every
 * outgoing connection gets its local port: a port in that range may be taken meanwhile by any
 * connection on the host, even by the service's own attempt to reach it (given the same port as
 * its source, a connection to a port nobody listens on connects to itself).
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
    if (!ports.includes(port) && !(await portIsTaken(host, port))) ports.push(port);
  }
  return ports;
}
