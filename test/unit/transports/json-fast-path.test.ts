import t from 'tap';
import { decodeJsonRequest, parseRateLimitRequestJson } from '../../../src/transports/http/json-codec-decode.js';
import { scanCanonicalRequest } from '../../../src/transports/http/json-fast-path.js';

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', '_', '-', ' ', '.', '/', '*', ':', 'é', '日', '😀', '0', '9'];
/** Characters JSON must escape: rare, so most generated bodies are ones the fast path may take. */
const ESCAPED = ['"', '\\', '\n', '\t', '\u0001'];

function randomBody(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = (max: number) => Array.from({ length: Math.floor(random() * max) }, () => pick(random() < 0.01 ? ESCAPED : ALPHABET)).join('');
  const space = () => (random() < 0.01 ? pick(['\n', '\t', '\r']) : random() < 0.2 ? pick([' ', '  ']) : '');
  const str = (value: string) => space() + JSON.stringify(value) + space();
  const number = () => pick(['0', '1', '7', '42', '4294967295', '4294967296', '01', '-1', '1.5', '1e2', '"5"', 'null', '999999999999999999']);
  const object = (fields: string[]) => `{${space()}${fields.join(',')}${space()}}`;
  const field = (name: string, value: string) => `${str(name)}:${space()}${value}`;

  const entry = () => {
    const fields: string[] = [];
    if (random() < 0.97) fields.push(field(random() < 0.97 ? 'key' : pick(['Key', 'value']), str(text(6))));
    if (random() < 0.9) fields.push(field(random() < 0.97 ? 'value' : 'key', random() < 0.03 ? 'null' : str(text(6))));
    if (random() < 0.02) fields.push(field('extra', '1'));
    if (random() < 0.5) fields.reverse();
    return object(fields);
  };
  const descriptor = () => {
    const fields: string[] = [];
    if (random() < 0.95) fields.push(field('entries', `[${Array.from({ length: Math.floor(random() * 4) }, entry).join(',')}]`));
    if (random() < 0.2) fields.push(field(pick(['hitsAddend', 'hits_addend']), number()));
    if (random() < 0.05) fields.push(field('limit', '{"requestsPerUnit":5,"unit":"MINUTE"}'));
    if (random() < 0.3) fields.reverse();
    return object(fields);
  };
  const fields: string[] = [];
  if (random() < 0.95) fields.push(field('domain', random() < 0.05 ? '5' : str(text(8))));
  if (random() < 0.95) fields.push(field('descriptors', `[${Array.from({ length: Math.floor(random() * 4) }, descriptor).join(',')}]`));
  if (random() < 0.2) fields.push(field(pick(['hitsAddend', 'hits_addend', 'domain']), number()));
  if (random() < 0.3) fields.reverse();
  let body = space() + object(fields) + space();
  // Damage some bodies: cut them short, or add trailing bytes.
  const damage = random();
  if (damage < 0.1) body = body.slice(0, Math.floor(random() * body.length));
  else if (damage < 0.15) body += pick(['}', ',', 'x', ' ]']);
  return body;
}

t.test('the fast path only ever answers what the full decoder answers', async (t) => {
  const random = generator(20261122);
  let scanned = 0;
  let mismatches = 0;
  const firstMismatches: string[] = [];
  const cases = 20_000;
  for (let i = 0; i < cases; i++) {
    const body = randomBody(random);
    const fast = scanCanonicalRequest(body);
    if (fast === undefined) continue;
    scanned++;
    const full = decodeJsonRequest(body);
    if (JSON.stringify(full) !== JSON.stringify(fast) || 'message' in full) {
      mismatches++;
      if (firstMismatches.length < 3) firstMismatches.push(body);
    }
  }
  t.equal(mismatches, 0, `the fast path disagreed on: ${JSON.stringify(firstMismatches)}`);
  t.ok(scanned > cases / 5, `the fast path took ${scanned} of ${cases} generated bodies`);
});

t.test('the canonical body Envoy-style clients send takes the fast path', async (t) => {
  const body = '{"domain":"bench","descriptors":[{"entries":[{"key":"service","value":"api"},{"key":"user","value":"bench-user"}]}]}';
  t.same(scanCanonicalRequest(body), {
    domain: 'bench',
    descriptors: [{ entries: [{ key: 'service', value: 'api' }, { key: 'user', value: 'bench-user' }] }],
    hitsAddend: 0,
  });
  t.same(scanCanonicalRequest(' { "domain" : "d" , "hitsAddend" : 3 , "descriptors" : [ { "hitsAddend" : 0 , "entries" : [ ] } ] } '), {
    domain: 'd',
    descriptors: [{ entries: [], hitsAddend: 0 }],
    hitsAddend: 3,
  });
});

t.test('what the fast path leaves to the full decoder', async (t) => {
  const leaves = [
    '{"domain":"a\\u0062"}',
    '{"domain":"a","domain":"b"}',
    '{"domain":"a","descriptors":[{"entries":[{"key":"","value":"x"}]}]}',
    '{"domain":"a","descriptors":[{"entries":[{"key":"k","value":null}]}]}',
    '{"hits_addend":1}',
    '{"hitsAddend":01}',
    '{"hitsAddend":4294967296}',
    '{"domain":"a"}x',
    '{"domain":"a"',
    '{\n"domain":"a"}',
    '{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requestsPerUnit":1,"unit":"SECOND"}}]}',
  ];
  for (const body of leaves) {
    t.equal(scanCanonicalRequest(body), undefined, body);
    t.same(parseRateLimitRequestJson(body), decodeJsonRequest(body), `${body}: the public decoder gives the full decoder's answer`);
  }
});
