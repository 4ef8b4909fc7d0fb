/**
 * What the bare servers answer: the service's own reply to the bench request, fixed, so the
 * ceilings write the same bytes the service writes.
 */
import { Code, Unit, type RateLimitResponse } from '../src/engine/index.js';
import { BENCH_LIMIT_PER_SECOND } from '../bench/bench-fixture.js';

export const FIXED_RESPONSE: RateLimitResponse = {
  overallCode: Code.OK,
  statuses: [
    {
      code: Code.OK,
      currentLimit: { name: '', requestsPerUnit: BENCH_LIMIT_PER_SECOND, unit: Unit.SECOND },
      limitRemaining: BENCH_LIMIT_PER_SECOND - 1,
      durationUntilResetSeconds: 1,
    },
  ],
  responseHeadersToAdd: [],
};

/** Byte for byte the body the service's `/json` returns for the bench request. */
export const FIXED_JSON_REPLY = JSON.stringify({
  overallCode: 'OK',
  statuses: [
    {
      code: 'OK',
      currentLimit: { requestsPerUnit: BENCH_LIMIT_PER_SECOND, unit: 'SECOND' },
      limitRemaining: BENCH_LIMIT_PER_SECOND - 1,
      durationUntilReset: '1s',
    },
  ],
});

/** The line a bare server prints once it listens: `LISTENING <port>`. */
export function parseListeningPort(output: string): number | undefined {
  const m = /^LISTENING (\d+)$/m.exec(output);
  return m === null ? undefined : Number(m[1]);
}
