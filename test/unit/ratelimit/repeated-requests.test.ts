import t from 'tap';
import type { RateLimitRequest } from '../../../src/engine/index.js';
import { MAX_FORMS_PER_HASH, MAX_KEPT_FORM_BYTES, PERIOD, REST_PERIODS, RepeatedRequests, formHash } from '../../../src/ratelimit/repeated-requests.js';

const request = (domain: string): RateLimitRequest => ({ domain, descriptors: [{ entries: [{ key: 'k', value: 'v' }] }], hitsAddend: 0 });
const body = (domain: string): Uint8Array => new TextEncoder().encode(JSON.stringify(request(domain)));

t.test('a kept body gives back the same request and reuse on every repeat', async (t) => {
  const bodies = new RepeatedRequests(10);
  t.equal(bodies.use(), true);
  t.equal(bodies.remember(body('a'), request('a')), undefined, 'the first sight only marks the body');
  t.equal(bodies.get(body('a')), undefined);
  const first = bodies.remember(body('a'), request('a'));
  t.ok(first, 'the second sight keeps it');
  const again = bodies.get(body('a'));
  t.equal(again, first);
  t.equal(again?.reuse, first?.reuse);
  t.equal(bodies.get(body('b')), undefined);
  t.equal(bodies.remember(body('a'), request('a')), first, 'remembering a kept body gives back what is kept');
  t.equal(bodies.size, 1);
});

t.test('the bytes are copied: the memory they came in may be reused at once', async (t) => {
  // uWS hands a body in its own memory and writes the next request over it.
  const bodies = new RepeatedRequests(10);
  const memory = new Uint8Array(256);
  const arrive = (domain: string): Uint8Array => {
    const bytes = body(domain);
    memory.fill(0).set(bytes);
    return memory.subarray(0, bytes.length);
  };
  for (let i = 0; i < 2; i++) {
    const view = arrive('aa');
    if (bodies.get(view) === undefined) bodies.remember(view, request('aa'));
  }
  const other = arrive('bb');
  t.equal(bodies.get(other), undefined, 'what now fills the memory is not found');
  t.equal(bodies.get(body('aa'))?.request.domain, 'aa', 'the kept body still is, from other memory');
});

t.test('a gRPC message, a Buffer slice of memory grpc-js reuses, is copied too', async (t) => {
  // Buffer#slice shares memory where Uint8Array#slice copies.
  const bodies = new RepeatedRequests(10);
  const pool = Buffer.alloc(512, 0x20);
  const arrive = (domain: string, at: number): Buffer => {
    const bytes = Buffer.from(body(domain));
    pool.fill(0x20);
    bytes.copy(pool, at);
    return pool.subarray(at, at + bytes.length);
  };
  for (const at of [0, 3]) {
    const message = arrive('grpc', at);
    if (bodies.get(message) === undefined) bodies.remember(message, request('grpc'));
  }
  arrive('other', 0);
  arrive('other', 3);
  t.equal(bodies.get(Buffer.from(body('grpc')))?.request.domain, 'grpc', 'kept from its own copy');
  t.equal(bodies.get(arrive('othe2', 0)), undefined, 'a message of the same length over the same memory is not taken for it');
});

t.test('the same bytes are found at any alignment and of any length', async (t) => {
  // A gRPC message is a slice of a larger buffer, at any offset; words and tail bytes must agree.
  const bodies = new RepeatedRequests(100);
  for (let length = 0; length <= 9; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => 250 - i * 7);
    bodies.remember(bytes, request(`len${length}`));
    bodies.remember(bytes.slice(), request(`len${length}`));
    for (let offset = 0; offset < 4; offset++) {
      const placed = new Uint8Array(16).fill(0x55);
      placed.set(bytes, offset);
      const view = placed.subarray(offset, offset + length);
      t.equal(bodies.get(view)?.request.domain, `len${length}`, `${length} bytes at offset ${offset}`);
    }
    if (length > 0) {
      const changed = bytes.slice();
      changed[length - 1] = (changed[length - 1] as number) ^ 1;
      t.equal(bodies.get(changed), undefined, `${length} bytes with the last one changed`);
    }
  }
});

t.test('past its capacity, the body kept longest goes first', async (t) => {
  const bodies = new RepeatedRequests(3);
  const twice = (domain: string) => {
    bodies.remember(body(domain), request(domain));
    return bodies.remember(body(domain), request(domain));
  };
  for (const domain of ['a', 'b', 'c']) twice(domain);
  t.ok(bodies.get(body('a')), 'a hit does not move an entry');
  bodies.remember(body('d'), request('d'));
  t.equal(bodies.size, 3, 'a mark takes a place');
  t.equal(bodies.get(body('a')), undefined, 'the oldest went');
  t.same(['b', 'c'].map((domain) => bodies.get(body(domain))?.request.domain), ['b', 'c']);
  t.ok(bodies.remember(body('d'), request('d')), 'the marked body is kept on its second sight, in its place');
  twice('e');
  t.equal(bodies.get(body('b')), undefined, 'b, then the oldest, went for e');
  t.same(['c', 'd', 'e'].map((domain) => bodies.get(body(domain))?.request.domain), ['c', 'd', 'e']);
});

/**
 * Eight-byte forms that share one hash under `seed`: the second word undoes the first. Only the
 * seed makes this possible, which is why it is secret.
 */
function colliding(seed: number, count: number): Uint8Array[] {
  const step = (h: number, word: number) => {
    const m = Math.imul(h ^ word, 0x5bd1e995);
    return m ^ (m >>> 15);
  };
  return Array.from({ length: count }, (_, i) => {
    const words = new Int32Array(2);
    words[0] = 1000 + i;
    words[1] = step(seed ^ 8, words[0]) ^ 0x1234;
    return new Uint8Array(words.buffer);
  });
}

t.test(`forms made to share a hash: at most ${MAX_FORMS_PER_HASH} are kept, and each is still told apart`, async (t) => {
  const seed = 0x2545f491;
  const forms = colliding(seed, MAX_FORMS_PER_HASH + 3);
  t.equal(new Set(forms.map((form) => formHash(form, seed))).size, 1, 'they do share one hash');
  t.not(formHash(forms[0] as Uint8Array, seed + 1), formHash(forms[1] as Uint8Array, seed + 1), 'under another seed they do not');
  const bodies = new RepeatedRequests(100, MAX_KEPT_FORM_BYTES, seed);
  forms.forEach((form, i) => {
    bodies.remember(form, request(`f${i}`));
    bodies.remember(form, request(`f${i}`));
  });
  const found = forms.map((form) => bodies.get(form)?.request.domain);
  t.same(found.slice(0, MAX_FORMS_PER_HASH), Array.from({ length: MAX_FORMS_PER_HASH }, (_, i) => `f${i}`), 'the first ones are kept, each its own');
  t.same(found.slice(MAX_FORMS_PER_HASH), [undefined, undefined, undefined], 'the rest are decided, not kept');
  t.equal(bodies.size, MAX_FORMS_PER_HASH);
});

t.test('evicting a form of a shared hash keeps the others of that hash', async (t) => {
  const seed = 77;
  const [a, b, c] = colliding(seed, 3) as [Uint8Array, Uint8Array, Uint8Array];
  const bodies = new RepeatedRequests(2, MAX_KEPT_FORM_BYTES, seed);
  bodies.remember(a, request('a'));
  bodies.remember(b, request('b'));
  bodies.remember(b, request('b'));
  bodies.remember(c, request('c'));
  t.equal(bodies.get(a), undefined, 'the oldest, first of its hash, went');
  t.equal(bodies.get(b)?.request.domain, 'b');
  t.ok(bodies.remember(c, request('c')), 'c is kept on its second sight');
  t.equal(bodies.get(c)?.request.domain, 'c');
  bodies.remember(a, request('a'));
  t.equal(bodies.get(b), undefined, 'then b went for a');
  t.equal(bodies.get(c)?.request.domain, 'c', 'c, last in its chain, stays');
});

t.test('capacity 0 keeps nothing: no request goes through the cache', async (t) => {
  const bodies = new RepeatedRequests(0);
  t.equal(bodies.use(), false);
});

/** One request through the cache as the fronts do it; true when it was found kept. */
function through(bodies: RepeatedRequests, domain: string): boolean | 'not used' {
  if (!bodies.use()) return 'not used';
  const bytes = body(domain);
  if (bodies.get(bytes) !== undefined) return true;
  bodies.remember(bytes, request(domain));
  return false;
}

t.test('a period that finds too few kept requests rests the cache, then it is tried again', async (t) => {
  const bodies = new RepeatedRequests(100);
  let n = 0;
  const outcomes = new Map<string, number>();
  const count = (outcome: boolean | 'not used') => outcomes.set(String(outcome), (outcomes.get(String(outcome)) ?? 0) + 1);
  for (let i = 0; i < PERIOD; i++) count(through(bodies, `unique-${n++}`));
  t.same(Object.fromEntries(outcomes), { false: PERIOD }, 'every distinct body looked up');
  outcomes.clear();
  for (let i = 0; i < REST_PERIODS * PERIOD; i++) count(through(bodies, `unique-${n++}`));
  t.same(Object.fromEntries(outcomes), { 'not used': REST_PERIODS * PERIOD }, 'then none, for the rest');
  t.equal(through(bodies, 'again'), false, 'after the rest, looked up again');
  t.equal(bodies.size, 100, 'marks beyond the capacity pushed the oldest out');
});

t.test('a period that finds one kept request in 8 or more keeps the cache in use', async (t) => {
  const bodies = new RepeatedRequests(100);
  let n = 0;
  let unused = 0;
  for (let i = 0; i < 10 * PERIOD; i++) {
    // One request in 7 is the same body: found kept from its third sight on.
    const outcome = through(bodies, i % 7 === 0 ? 'hot' : `unique-${n++}`);
    if (outcome === 'not used') unused++;
  }
  t.equal(unused, 0);
});

t.test(`bodies over ${MAX_KEPT_FORM_BYTES} bytes are decided but not kept`, async (t) => {
  const bodies = new RepeatedRequests(10);
  const long = new Uint8Array(MAX_KEPT_FORM_BYTES + 1).fill(0x78);
  t.equal(bodies.remember(long, request('x')), undefined);
  t.equal(bodies.remember(long, request('x')), undefined);
  t.equal(bodies.get(long), undefined);
  const fits = new Uint8Array(MAX_KEPT_FORM_BYTES).fill(0x79);
  bodies.remember(fits, request('y'));
  t.ok(bodies.remember(fits, request('y')), 'a body of exactly the limit is kept');
  t.ok(bodies.get(fits));
});
