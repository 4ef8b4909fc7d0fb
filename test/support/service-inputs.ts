/**
 * What any service a test starts is given, in the test's own process or in a process of its own:
 * the fixture files, the environment every test service runs with, and the descriptors and
 * statistic names its requests and answers use. Light on purpose: a test that starts service
 * processes imports this, not the in-process harness, which loads the whole service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../src/transports/package-files.js';

/** Directory of the YAML fixtures of the e2e suite (test/fixtures/e2e in the source tree). */
export const FIXTURES_DIR = packageFile('test/fixtures/e2e');

/** The text of a fixture file in test/fixtures/e2e. */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES_DIR, name), 'utf8');
}

/**
 * What a test's service serves unless the test says otherwise: decisions alone. A test of the
 * alert or score API names it (APIS=alerts, APIS=scores); opening an API is most of a start's cost.
 */
export const TEST_APIS_ENV = { APIS: 'none' } as const;

/** Every listener on 127.0.0.1 and a free port (PORT=0), so runs in parallel never collide. */
export const LOCAL_LISTENERS_ENV: Readonly<Record<string, string>> = {
  PORT: '0',
  DEBUG_PORT: '0',
  GRPC_PORT: '0',
  HOST: '127.0.0.1',
  DEBUG_HOST: '127.0.0.1',
  GRPC_HOST: '127.0.0.1',
};

/** A descriptor for /json from `k=v` pairs: D('key1', 'foo') or D('a', '1', 'b', '2'). */
export function D(...kv: string[]): { entries: Array<{ key: string; value: string }> } {
  const entries: Array<{ key: string; value: string }> = [];
  for (let i = 0; i < kv.length; i += 2) entries.push({ key: kv[i] as string, value: kv[i + 1] ?? '' });
  return { entries };
}

/** `ratelimit.service.rate_limit.<fullKey>.<stat>` */
export function ruleStat(fullKey: string, stat: string): string {
  return `ratelimit.service.rate_limit.${fullKey}.${stat}`;
}
