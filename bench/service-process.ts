/**
 * Starts the real service (`node dist/src/main.js`) on free ports (PORT=0 etc.) and reads the
 * bound ports from its `listening` log line (LOG_LEVEL=info, text format).
 */
import { SERVER_NODE_FLAGS } from './node-flags.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedProcess } from './managed-process.js';

/** dist/bench/service-process.js -> dist/src/main.js */
export const MAIN_JS = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.js');

export interface ServicePorts {
  http: number;
  debug: number;
  grpc: number;
}

export interface RunningService {
  process: ManagedProcess;
  ports: ServicePorts;
  stop(): Promise<void>;
}

/** `msg="ready" http=N debug=M grpc=G ...` */
export function parseListening(output: string): ServicePorts | undefined {
  const m = /msg="ready" http=(\d+) debug=(\d+) grpc="?(\d+)"?/.exec(output);
  return m === null ? undefined : { http: Number(m[1]), debug: Number(m[2]), grpc: Number(m[3]) };
}

export async function startService(env: Record<string, string>, cpus?: string): Promise<RunningService> {
  const proc = new ManagedProcess({
    command: process.execPath,
    args: [...SERVER_NODE_FLAGS, MAIN_JS],
    env: {
      HOST: '127.0.0.1',
      GRPC_HOST: '127.0.0.1',
      DEBUG_HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: '0',
      DEBUG_PORT: '0',
      ...env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'text',
    },
    ...(cpus === undefined ? {} : { cpus }),
  });
  try {
    const ports = await proc.waitFor('the "ready" log line', parseListening);
    return { process: proc, ports, stop: () => proc.stop() };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/** A counter from the debug server's `/stats` (`name: value` lines); 0 when absent. */
export async function readStat(debugPort: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${debugPort}/stats`)).text();
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}: `)) return Number(line.slice(name.length + 2));
  }
  return 0;
}
