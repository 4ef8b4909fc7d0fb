/**
 * The compact-form reader of `/json` bodies against the general decoder: whatever it reads is what
 * the general decoder gives, and whatever it passes on the general decoder answers, so
 * `parseRateLimitRequestJson` answers every body as the general decoder alone does.
 */
import t from 'tap';
import { parseRateLimitRequestJson, parseThroughJsonParse } from '../../../src/ratelimit/http/json-decode.js';
import { readPlainRequest } from '../../../src/ratelimit/http/json-plain-request.js';

const same = (body: string) => JSON.stringify(parseRateLimitRequestJson(body)) === JSON.stringify(parseThroughJsonParse(body));

const PLAIN = [
  '{"domain":"bench","descriptors":[{"entries":[{"key":"service","value":"api"},{"key":"user","value":"bench-user"}]}]}',
  '{"domain":"","descriptors":[]}',
  '{"domain":"d","descriptors":[{"entries":[]}]}',
  '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":""}]},{"entries":[{"key":"a","value":"b"}]}]}',
  '{"domain":"Σ-🙂","descriptors":[{"entries":[{"key":"ключ","value":"値 with spaces, commas and \\"quotes\\""}]}]}'.replace(' and \\"quotes\\"', ''),
  JSON.stringify({ domain: 'x'.repeat(5000), descriptors: Array.from({ length: 20 }, (_, d) => ({ entries: Array.from({ length: 5 }, (_, e) => ({ key: `k${d}.${e}`, value: `v:{}[],"`.replace('"', '') })) })) }),
];

t.test('the compact form is read to exactly what the general decoder gives', async (t) => {
  for (const body of PLAIN) {
    const plain = readPlainRequest(body);
    t.not(plain, undefined, `read directly: ${body.slice(0, 60)}`);
    t.same(plain, parseThroughJsonParse(body));
  }
});

t.test('every other body is passed on, and answered as the general decoder answers it', async (t) => {
  const passedOn = [
    '{"domain": "bench", "descriptors": [{"entries": [{"key": "k", "value": "v"}]}]}',
    '{"descriptors":[],"domain":"d"}',
    '{"domain":"d","descriptors":[{"entries":[{"value":"v","key":"k"}]}]}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"","value":"v"}]}]}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v","key":"k2"}]}]}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}],"hitsAddend":2}]}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}],"limit":{"requestsPerUnit":1,"unit":"SECOND"}}]}',
    '{"domain":"d","descriptors":[],"hitsAddend":3}',
    '{"domain":"d\\u0041","descriptors":[]}',
    '{"domain":"d\\ud800","descriptors":[]}',
    '{"domain":"a\tb","descriptors":[]}',
    '{"domain":"d","descriptors":[]} ',
    '{"domain":"d","descriptors":[]}x',
    '{"domain":"d","descriptors":[]',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"},]}]}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]},]}',
    '{"domain":null,"descriptors":[]}',
    '{"domain":"d","descriptors":null}',
    '{"domain":"d"}',
    '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"domain":"e"}',
    '[]',
    '',
  ];
  for (const body of passedOn) {
    t.equal(readPlainRequest(body), undefined, `passed on: ${body}`);
    t.ok(same(body), `answered alike: ${body}`);
  }
});

t.test('bodies one edit away from the compact form are answered as the general decoder answers them', async (t) => {
  // Every deletion, and every insertion or replacement of a character JSON gives meaning to, at every position.
  const base = '{"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"},{"key":"k2","value":"v2"}]},{"entries":[]}]}';
  const characters = ['"', '\\', ',', ':', '{', '}', '[', ']', ' ', '\n', 'x', '\u0001', '0'];
  const differing: string[] = [];
  let tried = 0;
  for (let at = 0; at <= base.length; at++) {
    const edits = [base.slice(0, at) + base.slice(at + 1)];
    for (const c of characters) edits.push(base.slice(0, at) + c + base.slice(at), base.slice(0, at) + c + base.slice(at + 1));
    for (const body of edits) {
      tried++;
      if (!same(body)) differing.push(body);
    }
  }
  t.ok(tried > 2500, `${tried} bodies tried`);
  t.same(differing, [], 'none answered differently');
});
