import t from 'tap';
import type { RateLimitRequest } from '../../../src/engine/index.js';
import { MAX_KEPT_FORM_LENGTH, RepeatedRequests } from '../../../src/ratelimit/repeated-requests.js';

const request = (domain: string): RateLimitRequest => ({ domain, descriptors: [{ entries: [{ key: 'k', value: 'v' }] }], hitsAddend: 0 });
const body = (domain: string) => JSON.stringify(request(domain));

t.test('a kept body gives back the same request and reuse on every repeat', async (t) => {
  const bodies = new RepeatedRequests(10);
  t.equal(bodies.enabled, true);
  const first = bodies.remember(body('a'), request('a'));
  t.ok(first);
  const again = bodies.get(body('a'));
  t.equal(again, first);
  t.equal(again?.reuse, first?.reuse);
  t.equal(bodies.get(body('b')), undefined);
});

t.test('past its capacity, the body kept longest goes first', async (t) => {
  const bodies = new RepeatedRequests(3);
  for (const domain of ['a', 'b', 'c']) bodies.remember(body(domain), request(domain));
  t.ok(bodies.get(body('a')), 'a hit does not move an entry');
  bodies.remember(body('d'), request('d'));
  t.equal(bodies.size, 3);
  t.equal(bodies.get(body('a')), undefined, 'the oldest went');
  t.same(['b', 'c', 'd'].map((domain) => bodies.get(body(domain))?.request.domain), ['b', 'c', 'd']);
});

t.test('capacity 0 keeps nothing', async (t) => {
  const bodies = new RepeatedRequests(0);
  t.equal(bodies.enabled, false);
  t.equal(bodies.remember(body('a'), request('a')), undefined);
  t.equal(bodies.get(body('a')), undefined);
  t.equal(bodies.size, 0);
});

t.test(`bodies over ${MAX_KEPT_FORM_LENGTH} characters are decided but not kept`, async (t) => {
  const bodies = new RepeatedRequests(10);
  const long = body('x'.repeat(MAX_KEPT_FORM_LENGTH));
  t.equal(bodies.remember(long, request('x')), undefined);
  t.equal(bodies.get(long), undefined);
  const fits = 'y'.repeat(MAX_KEPT_FORM_LENGTH);
  t.ok(bodies.remember(fits, request('y')), 'a body of exactly the limit is kept');
});
