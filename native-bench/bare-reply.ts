/**
 * What the bare uWS server answers: the service's own reply to the bench request, fixed, so the
 * ceiling writes the same bytes the service writes. It imports nothing of the service's, so the
 * ceiling loads only what a bare server needs.
 */
import { BENCH_LIMIT_PER_SECOND } from '../bench/bench-request.js';

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
