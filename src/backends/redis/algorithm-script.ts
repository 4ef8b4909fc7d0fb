import { Algorithm, type CounterIncrement } from '../../engine/index.js';

/**
 * Sliding windows and token buckets in Redis, counted by one script per batch (loaded once:
 * ioredis's defineCommand sends EVALSHA and loads the script only when Redis does not know it),
 * so each count is atomic and costs one round trip. The arithmetic is algorithms.ts's, in the
 * same order of operations, so Redis and the embedded store answer alike.
 *
 * Per count i: KEYS[2i-1] its key, KEYS[2i] the previous window's key (sliding window; the key
 * again for a bucket, so a cluster finds both in one slot); ARGV[6i-5 .. 6i] algorithm, hits,
 * limit, unit ms, now ms, TTL seconds. A sliding window's counter lives two windows (it is read
 * as the previous one); a bucket is a hash {t: tokens, at: ms} that expires after one unit idle,
 * when it would be full anyway.
 */
export const ALGORITHM_SCRIPT = `
local values = {}
for i = 1, #KEYS / 2 do
  local a = (i - 1) * 6
  local hits = tonumber(ARGV[a + 2])
  local limit = tonumber(ARGV[a + 3])
  local unitMs = tonumber(ARGV[a + 4])
  local now = tonumber(ARGV[a + 5])
  local key = KEYS[2 * i - 1]
  local after
  if ARGV[a + 1] == '${Algorithm.SLIDING_WINDOW}' then
    local previous = tonumber(redis.call('GET', KEYS[2 * i]) or '0')
    local current = tonumber(redis.call('GET', key) or '0')
    after = math.floor((previous * (unitMs - now % unitMs)) / unitMs) + current + hits
    if hits > 0 and after <= limit then
      redis.call('INCRBY', key, hits)
      redis.call('EXPIRE', key, ARGV[a + 6])
    end
  else
    local state = redis.call('HMGET', key, 't', 'at')
    local tokens = limit
    if state[1] then
      tokens = math.min(limit, tonumber(state[1]) + (math.max(0, now - tonumber(state[2])) * limit) / unitMs)
    end
    after = limit - math.floor(tokens) + hits
    if hits > 0 and after <= limit then
      redis.call('HSET', key, 't', string.format('%.17g', tokens - hits), 'at', ARGV[a + 5])
      redis.call('PEXPIRE', key, unitMs)
    end
  end
  values[i] = after
end
return values`;

/** KEYS and ARGV of the script for `counts` (each with its algorithm); `read` counts no hits. */
export function algorithmScriptArguments(counts: readonly CounterIncrement[], read: boolean, ttlOf: (inc: CounterIncrement) => number): { keys: string[]; args: Array<string | number> } {
  const keys: string[] = [];
  const args: Array<string | number> = [];
  for (const inc of counts) {
    const count = inc.algorithm!;
    const sliding = count.algorithm === Algorithm.SLIDING_WINDOW;
    keys.push(inc.key, sliding ? count.previousKey : inc.key);
    args.push(count.algorithm, read ? 0 : inc.hits, count.limit, count.unitMs, count.nowMs, sliding ? 2 * ttlOf(inc) : ttlOf(inc));
  }
  return { keys, args };
}
