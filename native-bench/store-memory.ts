/** Runs memory-keys.js in a fresh process (so nothing else sits in its heap) and reads its figures. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChecked } from './run-command.js';

export interface StoreMemory {
  keys: number;
  rssBeforeBytes: number;
  rssAfterCreateBytes: number;
  rssAfterBytes: number;
  bytesPerKey: number;
  keysInUse: number;
  fullCount: number;
  wrongCounts: number;
  bytesReserved: number;
  loadMs: number;
  gcExposed: boolean;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'memory-keys.js');

export async function measureStoreMemory(cpus: string): Promise<StoreMemory> {
  const out = await runChecked(process.execPath, ['--expose-gc', SCRIPT], cpus);
  const line = /^MEMORY_JSON (\{.*\})$/m.exec(out.stdout);
  if (line === null) throw new Error(`memory-keys printed no figures:\n${out.stdout}\n${out.stderr}`);
  return JSON.parse(line[1] as string) as StoreMemory;
}
