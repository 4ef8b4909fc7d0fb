import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/** A relative `*_file` path is read from the configuration file's directory, as Alertmanager reads it. */
export function configPath(baseDir: string, path: string): string {
  return isAbsolute(path) ? path : join(baseDir, path);
}

/** A secret kept in a file (`url_file`, `api_url_file`, `routing_key_file`): read at each send, trimmed, as Alertmanager reads it. */
export async function readSecretFile(baseDir: string, path: string): Promise<{ ok: true; value: string } | { ok: false; error: string }> {
  try {
    return { ok: true, value: (await readFile(configPath(baseDir, path), 'utf8')).trim() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
