import t from 'tap';
import { Code, Unit, type RateLimitResponse } from '../../../src/engine/index.js';
import { decodeRateLimitResponse } from '../../../src/ratelimit/grpc/index.js';
import { encodeRateLimitResponseBytes } from '../../../src/ratelimit/grpc/rls-response-encoder.js';

t.test('protobufjs reads back every field the hand-written encoder writes', async (t) => {
  const response: RateLimitResponse = {
    overallCode: Code.OVER_LIMIT,
    statuses: [
      { code: Code.OVER_LIMIT, currentLimit: { name: 'spécial', requestsPerUnit: 5, unit: Unit.SECOND }, limitRemaining: 0, durationUntilResetSeconds: 1 },
      { code: Code.OK, currentLimit: { name: '', requestsPerUnit: 4294967295, unit: Unit.WEEK }, limitRemaining: 4294967294, durationUntilResetSeconds: 604800 },
      { code: Code.OK, limitRemaining: 0 },
      { code: Code.OK, limitRemaining: 4294967295 },
      { code: Code.OK, currentLimit: { name: '', requestsPerUnit: 0, unit: Unit.MINUTE }, limitRemaining: 0, durationUntilResetSeconds: 0 },
    ],
    responseHeadersToAdd: [
      { key: 'RateLimit-Limit', value: '5' },
      { key: 'RateLimit-Reset', value: '' },
    ],
  };
  t.same(decodeRateLimitResponse(encodeRateLimitResponseBytes(response)), {
    overallCode: 'OVER_LIMIT',
    statuses: [
      { code: 'OVER_LIMIT', currentLimit: { name: 'spécial', requestsPerUnit: 5, unit: 'SECOND' }, durationUntilReset: { seconds: 1 } },
      { code: 'OK', currentLimit: { requestsPerUnit: 4294967295, unit: 'WEEK' }, limitRemaining: 4294967294, durationUntilReset: { seconds: 604800 } },
      { code: 'OK' },
      { code: 'OK', limitRemaining: 4294967295 },
      { code: 'OK', currentLimit: { unit: 'MINUTE' }, durationUntilReset: {} },
    ],
    responseHeadersToAdd: [{ key: 'RateLimit-Limit', value: '5' }, { key: 'RateLimit-Reset' }],
  });
});

t.test('an UNKNOWN response with nothing set is zero bytes, as proto3 writes it', async (t) => {
  t.equal(encodeRateLimitResponseBytes({ overallCode: Code.UNKNOWN, statuses: [], responseHeadersToAdd: [] }).length, 0);
});
