/**
 * Row (p): the obvious Node alternative to the service, written as its users write it: fastify
 * (logger off) with a JSON schema for the body and one for the answer (fastify's own advice: the
 * body checked by ajv, the answer written by fast-json-stringify), counting with
 * rate-limiter-flexible's `RateLimiterMemory`. It serves the benchmark's one rule (domain `bench`,
 * descriptor `service=api, user=<any>`, `--limit` per second, default the benchmark's limit) on
 * `POST /json`, keyed by the service's own cache key, and answers the service's JSON: 200 or 429.
 * `RateLimiterMemory` counts a fixed one-second window per key, opened by the key's first hit
 * (the service's windows start on the wall clock's seconds). One thread. Prints `LISTENING <port>`.
 */
import Fastify from 'fastify';
import { parseArgs } from 'node:util';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { BENCH_DOMAIN, BENCH_LIMIT_PER_SECOND } from '../bench/bench-request.js';

const { values } = parseArgs({ options: { limit: { type: 'string', default: String(BENCH_LIMIT_PER_SECOND) } } });
const limit = Number(values.limit);
if (!Number.isInteger(limit) || limit < 1) {
  console.error(`--limit must be a whole number of requests per second, at least 1 (got ${values.limit})`);
  process.exit(2);
}

interface Entry {
  key: string;
  value: string;
}

interface JsonRequest {
  domain: string;
  descriptors: { entries: Entry[] }[];
}

/** One descriptor's answer; limitRemaining and currentLimit absent as proto3 JSON leaves them out. */
interface Status {
  code: 'OK' | 'OVER_LIMIT';
  currentLimit?: { requestsPerUnit: number; unit: 'SECOND' };
  limitRemaining?: number;
  durationUntilReset?: string;
}

const entrySchema = { type: 'object', required: ['key', 'value'], properties: { key: { type: 'string' }, value: { type: 'string' } } };
const requestSchema = {
  type: 'object',
  required: ['domain', 'descriptors'],
  properties: {
    domain: { type: 'string', minLength: 1 },
    descriptors: { type: 'array', minItems: 1, items: { type: 'object', required: ['entries'], properties: { entries: { type: 'array', items: entrySchema } } } },
  },
};
const answerSchema = {
  type: 'object',
  properties: {
    overallCode: { type: 'string' },
    statuses: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          currentLimit: { type: 'object', properties: { requestsPerUnit: { type: 'integer' }, unit: { type: 'string' } } },
          limitRemaining: { type: 'integer' },
          durationUntilReset: { type: 'string' },
        },
      },
    },
  },
};

const currentLimit = { requestsPerUnit: limit, unit: 'SECOND' } as const;
const limiter = new RateLimiterMemory({ points: limit, duration: 1 });

/** The service's cache key without its window start, for `service=api, user=<v>`; undefined when the rule does not apply. */
function ruleKey(domain: string, entries: readonly Entry[]): string | undefined {
  const [service, user] = entries;
  if (domain !== BENCH_DOMAIN || entries.length !== 2 || service?.key !== 'service' || service.value !== 'api' || user?.key !== 'user') return undefined;
  return `${domain}_service_api_user_${user.value}_`;
}

/** Whole seconds until the window resets, as proto3 JSON writes a Duration. */
const resetIn = (res: RateLimiterRes): string => `${Math.max(1, Math.ceil(res.msBeforeNext / 1000))}s`;

async function statusOf(domain: string, entries: readonly Entry[]): Promise<Status> {
  const key = ruleKey(domain, entries);
  if (key === undefined) return { code: 'OK' };
  try {
    const res = await limiter.consume(key, 1);
    // proto3 JSON leaves a zero out, so the last hit of a window has no limitRemaining.
    const limitRemaining = res.remainingPoints === 0 ? undefined : res.remainingPoints;
    return { code: 'OK', currentLimit, limitRemaining, durationUntilReset: resetIn(res) };
  } catch (rejection) {
    // consume rejects with the counter's state when over the limit, with an Error when it failed.
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return { code: 'OVER_LIMIT', currentLimit, durationUntilReset: resetIn(rejection) };
  }
}

const app = Fastify({ logger: false });

app.post<{ Body: JsonRequest }>('/json', { schema: { body: requestSchema, response: { 200: answerSchema, 429: answerSchema } } }, async (request, reply) => {
  const { domain, descriptors } = request.body;
  const statuses = await Promise.all(descriptors.map((descriptor) => statusOf(domain, descriptor.entries)));
  const over = statuses.some((status) => status.code === 'OVER_LIMIT');
  return reply.code(over ? 429 : 200).send({ overallCode: over ? 'OVER_LIMIT' : 'OK', statuses });
});

try {
  await app.listen({ host: '127.0.0.1', port: 0 });
} catch (error) {
  console.error(`fastify peer could not listen: ${(error as Error).message}`);
  process.exit(1);
}
const address = app.server.address();
console.log(`LISTENING ${typeof address === 'object' && address !== null ? address.port : ''}`);

process.once('SIGTERM', () => process.exit(0));
