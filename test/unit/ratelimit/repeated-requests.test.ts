import t from 'tap';
import type { RateLimitRequest } from '../../../src/engine/index.js';
import { MAX_KEPT_FORM_LENGTH, PERIOD, REST_PERIODS, RepeatedRequests } from '../../../src/ratelimit/repeated-requests.js';

const request = (domain: string): RateLimitRequest => ({ domain, descriptors: [{ entries: [{ key: 'k', value: 'v' }] }], hitsAddend: 0 });
const body = (domain: string) => JSON.stringify(request(domain));

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

t.test('capacity 0 keeps nothing: no request goes through the cache', async (t) => {
  const bodies = new RepeatedRequests(0);
  t.equal(bodies.use(), false);
});

/** One request through the cache as the fronts do it; true when it was found kept. */
function through(bodies: RepeatedRequests, domain: string): boolean | 'not used' {
  if (!bodies.use()) return 'not used';
  if (bodies.get(body(domain)) !== undefined) return true;
  bodies.remember(body(domain), request(domain));
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

t.test(`bodies over ${MAX_KEPT_FORM_LENGTH} characters are decided but not kept`, async (t) => {
  const bodies = new RepeatedRequests(10);
  const long = body('x'.repeat(MAX_KEPT_FORM_LENGTH));
  t.equal(bodies.remember(long, request('x')), undefined);
  t.equal(bodies.remember(long, request('x')), undefined);
  t.equal(bodies.get(long), undefined);
  const fits = 'y'.repeat(MAX_KEPT_FORM_LENGTH);
  bodies.remember(fits, request('y'));
  t.ok(bodies.remember(fits, request('y')), 'a body of exactly the limit is kept');
});
