import type { DescriptorEntry, RateLimitRequest, RequestDescriptor } from '../../engine/index.js';

/**
 * The compact form of a `/json` request, as `JSON.stringify` and Go's encoder write it, read
 * directly: `{"domain":"…","descriptors":[{"entries":[{"key":"…","value":"…"},…]},…]}`, members
 * in that order, no whitespace, strings without escapes or control characters. Each token is
 * matched with `startsWith` and each string's end found with `indexOf`, so the text is walked by
 * native code and only the request is built. `JSON.parse` followed by the checks on its tree
 * costs about three times as much for the benchmark's body.
 *
 * Anything else gives undefined and the general decoder decides, with its errors: this reader
 * never refuses a body, so it cannot answer differently from it.
 */
export function readPlainRequest(body: string): RateLimitRequest | undefined {
  // Escapes and raw control characters are the general decoder's (JSON.parse refuses the latter).
  if (body.indexOf('\\') !== -1 || CONTROL.test(body)) return undefined;
  text = body;
  at = 0;
  const request = readRequest();
  // The body is not held until the next request.
  text = '';
  return request;
}

function readRequest(): RateLimitRequest | undefined {
  const domain = stringAfter('{"domain":"');
  if (domain === undefined || !skip(',"descriptors":[')) return undefined;
  const descriptors = readList(readDescriptor);
  if (descriptors === undefined || text.charCodeAt(at) !== CLOSE_OBJECT || at + 1 !== text.length) return undefined;
  // The shape the general decoder builds, so that both give the engine objects of one kind.
  return { domain, descriptors, hitsAddend: 0 };
}

/** The text being read and the position in it: module state, so reading allocates only the request. */
let text = '';
let at = 0;

function readDescriptor(): RequestDescriptor | undefined {
  if (!skip('{"entries":[')) return undefined;
  const entries = readList(readEntry);
  return entries !== undefined && text.charCodeAt(at++) === CLOSE_OBJECT ? { entries } : undefined;
}

function readEntry(): DescriptorEntry | undefined {
  const key = stringAfter('{"key":"');
  // An empty key is an error the general decoder words.
  if (key === undefined || key === '') return undefined;
  const value = stringAfter(',"value":"');
  return value !== undefined && text.charCodeAt(at++) === CLOSE_OBJECT ? { key, value } : undefined;
}

/** Consumes `token` if the text goes on with it. */
function skip(token: string): boolean {
  if (!text.startsWith(token, at)) return false;
  at += token.length;
  return true;
}

/** The string after `opening` (which ends with its opening quote), up to its closing quote. */
function stringAfter(opening: string): string | undefined {
  if (!skip(opening)) return undefined;
  const end = text.indexOf('"', at);
  if (end === -1) return undefined;
  const value = text.slice(at, end);
  at = end + 1;
  return value;
}

/** The items of a list whose `[` was read, up to and with its `]`; undefined at the first item `item` does not read. */
function readList<T>(item: () => T | undefined): T[] | undefined {
  const items: T[] = [];
  if (text.charCodeAt(at) === CLOSE_ARRAY) {
    at++;
    return items;
  }
  for (;;) {
    const read = item();
    if (read === undefined) return undefined;
    items.push(read);
    const next = text.charCodeAt(at++);
    if (next === CLOSE_ARRAY) return items;
    if (next !== COMMA) return undefined;
  }
}

/** The characters JSON strings may not hold raw. */
const CONTROL = /[\u0000-\u001f]/;
const COMMA = 0x2c;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
