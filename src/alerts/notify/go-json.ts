import { sortedLabelNames } from '../fingerprint.js';
import type { LabelSet } from '../matchers/matcher.js';
import { ZERO_TIME } from '../time.js';

/** Go's encoding/json output of a map[string]string: keys in byte order (JSON objects in JS would put integer-like keys first). */
export function goMapJson(labels: LabelSet): string {
  return `{${sortedLabelNames(labels)
    .map((name) => `${JSON.stringify(name)}:${JSON.stringify(labels[name])}`)
    .join(',')}}`;
}

/** Go's json.Encoder with its default HTML escaping (`<`, `>`, `&`, U+2028, U+2029) applied to JSON text, and its trailing newline. */
export function goEncoderText(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/** A time as Go's time.Time marshals to JSON (RFC 3339 with trailing fractional zeros trimmed); Go's zero time for ZERO_TIME. */
export function goTimeJson(ms: number): string {
  if (ms === ZERO_TIME) return '"0001-01-01T00:00:00Z"';
  return JSON.stringify(new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z'));
}
