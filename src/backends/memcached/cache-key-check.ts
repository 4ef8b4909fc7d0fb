/** memcached's limit on key length, in bytes (upstream's memcache backend has the same). */
export const MAX_MEMCACHED_KEY_BYTES = 250;

/**
 * Why memcached cannot hold `key`, or undefined when it can. The text protocol splits on
 * whitespace and ends commands at control characters, so such keys are refused before anything
 * is sent rather than mangled or sent to the wrong counter.
 */
export function memcachedKeyProblem(key: string): string | undefined {
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > MAX_MEMCACHED_KEY_BYTES) {
    return `cache key is ${bytes} bytes; the object cache (memcached) allows at most ${MAX_MEMCACHED_KEY_BYTES}`;
  }
  // Space, and C0 controls plus DEL and the C1 controls.
  const bad = /[\s\u0000-\u001f\u007f-\u009f]/.exec(key);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) as number).toString(16).padStart(4, '0');
    return `cache key contains U+${code} at ${bad.index}; the object cache (memcached) takes no whitespace or control characters`;
  }
  return undefined;
}
