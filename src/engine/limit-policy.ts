import { newStruct, type MetadataStruct } from './metadata.js';
import type { CurrentLimit } from './response.js';
import { unitName, unitSeconds } from './units.js';

/**
 * Which limit decided an answer (RESPONSE_LIMIT_POLICY, an extension): a limit is named by its
 * `rate_limit.name`, or, when it has none, by its statistics key (`domain.key_value…`).
 */
export interface NamedLimit {
  name: string;
  limit: CurrentLimit;
  descriptorIndex: number;
}

/** `firedBy` of the dynamic metadata: the limit that made the answer OVER_LIMIT. */
export function firedByStruct(fired: NamedLimit): MetadataStruct {
  const struct = newStruct();
  struct['descriptorIndex'] = fired.descriptorIndex;
  struct['name'] = fired.name;
  struct['requestsPerUnit'] = fired.limit.requestsPerUnit;
  struct['unit'] = unitName(fired.limit.unit);
  return struct;
}

/**
 * A `RateLimit-Policy` field value in the form of draft-ietf-httpapi-ratelimit-headers: the
 * policy's name as a structured-field string, its quota `q` and its window `w` in seconds, e.g.
 * `"per_user";q=10;w=60`. A structured-field string holds printable ASCII only: other characters
 * (and `%`) are written as `%XX` of their UTF-8 bytes.
 */
export function limitPolicyHeader(named: NamedLimit): string {
  return `${sfString(named.name)};q=${named.limit.requestsPerUnit};w=${unitSeconds(named.limit.unit)}`;
}

function sfString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === '\\') out += '\\' + char;
    else if (code >= 0x20 && code <= 0x7e && char !== '%') out += char;
    else for (const byte of Buffer.from(char)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out + '"';
}
