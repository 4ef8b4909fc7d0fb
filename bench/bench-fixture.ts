/**
 * The one request every benchmark sends, and the config that answers it with 200: domain
 * `bench`, one descriptor `service=api, user=bench-user`, limited to 1,000,000,000 per second
 * so no run ever reaches 429.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BENCH_DOMAIN = 'bench';
export const BENCH_LIMIT_PER_SECOND = 1_000_000_000;

export const BENCH_REQUEST = {
  domain: BENCH_DOMAIN,
  descriptors: [{ entries: [{ key: 'service', value: 'api' }, { key: 'user', value: 'bench-user' }] }],
};

/** The JSON body of `POST /json`. */
export const BENCH_BODY = JSON.stringify(BENCH_REQUEST);

export const BENCH_CONFIG_YAML = `domain: ${BENCH_DOMAIN}
descriptors:
  - key: service
    value: api
    descriptors:
      - key: user
        rate_limit:
          unit: second
          requests_per_unit: ${BENCH_LIMIT_PER_SECOND}
`;

/** Runtime settings pointing at a temporary config dir (ROOT/SUB/APP/bench.yaml). */
export interface BenchConfigDir {
  env: { RUNTIME_ROOT: string; RUNTIME_SUBDIRECTORY: string; RUNTIME_APPDIRECTORY: string };
  remove(): Promise<void>;
}

export async function writeBenchConfig(yaml: string = BENCH_CONFIG_YAML): Promise<BenchConfigDir> {
  const root = await mkdtemp(join(tmpdir(), 'ratelimit-bench-'));
  const appDir = join(root, 'ratelimit', 'config');
  await mkdir(appDir, { recursive: true });
  await writeFile(join(appDir, 'bench.yaml'), yaml);
  return {
    env: { RUNTIME_ROOT: root, RUNTIME_SUBDIRECTORY: 'ratelimit', RUNTIME_APPDIRECTORY: 'config' },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
