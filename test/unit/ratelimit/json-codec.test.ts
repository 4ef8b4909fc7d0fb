import t from 'tap';
import {
  JsonDecodeError,
  encodeRateLimitResponseJson,
  encodeRateLimitResponseJsonBytes,
  formatDurationJson,
  isJsonDecodeError,
  parseRateLimitRequestJson,
} from '../../../src/ratelimit/index.js';
import type { RateLimitRequest } from '../../../src/engine/request.js';
import { Code, type RateLimitResponse } from '../../../src/engine/response.js';
import { Unit } from '../../../src/engine/units.js';

/** Parses, throwing (so failing the running test) when the result is an error. */
function ok(body: string): RateLimitRequest {
  const r = parseRateLimitRequestJson(body);
  if (r instanceof JsonDecodeError) throw new Error(`unexpected decode error: ${r.message}`);
  return r;
}

/** Parses and returns the error message ('' when it unexpectedly succeeded). */
function errMsg(body: string): string {
  const r = parseRateLimitRequestJson(body);
  return r instanceof JsonDecodeError ? r.message : '';
}

t.test('decode: camelCase full request', async (tt) => {
  const r = ok(
    JSON.stringify({
      domain: 'edge',
      descriptors: [
        {
          entries: [
            { key: 'remote_address', value: '10.0.0.1' },
            { key: 'path', value: '/api' },
          ],
          limit: { requestsPerUnit: 42, unit: 'MINUTE' },
          hitsAddend: '7',
        },
        { entries: [{ key: 'k' }] },
      ],
      hitsAddend: 3,
    }),
  );
  tt.strictSame(r, {
    domain: 'edge',
    descriptors: [
      {
        entries: [
          { key: 'remote_address', value: '10.0.0.1' },
          { key: 'path', value: '/api' },
        ],
        limit: { requestsPerUnit: 42, unit: Unit.MINUTE },
        hitsAddend: 7,
      },
      { entries: [{ key: 'k', value: '' }] },
    ],
    hitsAddend: 3,
  });
  tt.equal(r.descriptors[1]?.hitsAddend, undefined);
  tt.equal(r.descriptors[1]?.limit, undefined);
  tt.notOk(r.descriptors[1] !== undefined && 'hitsAddend' in r.descriptors[1]);
});

t.test('decode: snake_case names give the same result', async (tt) => {
  const r = ok(
    '{"domain":"edge","descriptors":[{"entries":[{"key":"a","value":"b"}],' +
      '"limit":{"requests_per_unit":"42","unit":2},"hits_addend":7}],"hits_addend":"3"}',
  );
  tt.strictSame(r, {
    domain: 'edge',
    descriptors: [
      {
        entries: [{ key: 'a', value: 'b' }],
        limit: { requestsPerUnit: 42, unit: Unit.MINUTE },
        hitsAddend: 7,
      },
    ],
    hitsAddend: 3,
  });
});

t.test('decode: mixed camelCase and snake_case in one body', async (tt) => {
  const r = ok(
    '{"hits_addend":2,"descriptors":[{"hitsAddend":"0","entries":[{"key":"a","value":"b"}],' +
      '"limit":{"requests_per_unit":1,"unit":"SECOND"}}]}',
  );
  tt.equal(r.hitsAddend, 2);
  tt.equal(r.domain, '');
  tt.equal(r.descriptors[0]?.hitsAddend, 0);
  tt.strictSame(r.descriptors[0]?.limit, { requestsPerUnit: 1, unit: Unit.SECOND });
});

t.test('decode: unit enum by name and by number', async (tt) => {
  const cases: Array<[string, Unit]> = [
    ['UNKNOWN', Unit.UNKNOWN],
    ['SECOND', Unit.SECOND],
    ['MINUTE', Unit.MINUTE],
    ['HOUR', Unit.HOUR],
    ['DAY', Unit.DAY],
    ['MONTH', Unit.MONTH],
    ['YEAR', Unit.YEAR],
    ['WEEK', Unit.WEEK],
  ];
  for (const [name, unit] of cases) {
    const byName = ok(`{"descriptors":[{"entries":[{"key":"k"}],"limit":{"unit":"${name}"}}]}`);
    tt.equal(byName.descriptors[0]?.limit?.unit, unit, `unit ${name} by name`);
    const byNumber = ok(`{"descriptors":[{"entries":[{"key":"k"}],"limit":{"unit":${unit}}}]}`);
    tt.equal(byNumber.descriptors[0]?.limit?.unit, unit, `unit ${name} by number ${unit}`);
  }
  tt.equal(Unit.WEEK, 7);
  tt.equal(Unit.YEAR, 6);
  // An empty limit object is a present limit with defaults (protojson semantics).
  const empty = ok('{"descriptors":[{"entries":[{"key":"k"}],"limit":{}}]}');
  tt.strictSame(empty.descriptors[0]?.limit, { requestsPerUnit: 0, unit: Unit.UNKNOWN });
});

t.test('decode: request-level hitsAddend as number and string', async (tt) => {
  tt.equal(ok('{"hitsAddend":5}').hitsAddend, 5);
  tt.equal(ok('{"hitsAddend":"5"}').hitsAddend, 5);
  tt.equal(ok('{"hitsAddend":0}').hitsAddend, 0);
  tt.equal(ok('{}').hitsAddend, 0);
  tt.equal(ok('{"hitsAddend":4294967295}').hitsAddend, 4294967295);
  tt.equal(ok('{"hitsAddend":"4294967295"}').hitsAddend, 4294967295);
  // protojson accepts any JSON number form that is integral.
  tt.equal(ok('{"hitsAddend":1e2}').hitsAddend, 100);
  tt.equal(ok('{"hitsAddend":"1e2"}').hitsAddend, 100);
  tt.equal(ok('{"hitsAddend":"2.50e1"}').hitsAddend, 25);
  tt.equal(ok('{"hitsAddend":"5.0"}').hitsAddend, 5);
  tt.equal(ok('{"hitsAddend":"500e-2"}').hitsAddend, 5);
  tt.equal(ok('{"hitsAddend":5.0}').hitsAddend, 5);
  tt.equal(ok('{"hitsAddend":"-0"}').hitsAddend, 0);
  tt.ok(Object.is(ok('{"hitsAddend":-0}').hitsAddend, 0), '-0 normalised to +0');
});

t.test('decode: descriptor hitsAddend 0 vs unset vs null', async (tt) => {
  const r = ok(
    '{"descriptors":[' +
      '{"entries":[{"key":"a"}],"hitsAddend":0},' +
      '{"entries":[{"key":"b"}]},' +
      '{"entries":[{"key":"c"}],"hitsAddend":null},' +
      '{"entries":[{"key":"d"}],"hits_addend":"0"},' +
      '{"entries":[{"key":"e"}],"hitsAddend":"12"},' +
      '{"entries":[{"key":"f"}],"hitsAddend":12}' +
      ']}',
  );
  tt.equal(r.descriptors.length, 6);
  tt.equal(r.descriptors[0]?.hitsAddend, 0);
  tt.ok(r.descriptors[0] !== undefined && 'hitsAddend' in r.descriptors[0], 'explicit 0 is set');
  tt.equal(r.descriptors[1]?.hitsAddend, undefined);
  tt.notOk(r.descriptors[1] !== undefined && 'hitsAddend' in r.descriptors[1], 'absent is unset');
  tt.equal(r.descriptors[2]?.hitsAddend, undefined);
  tt.notOk(r.descriptors[2] !== undefined && 'hitsAddend' in r.descriptors[2], 'null is unset');
  tt.equal(r.descriptors[3]?.hitsAddend, 0);
  tt.equal(r.descriptors[4]?.hitsAddend, 12);
  tt.equal(r.descriptors[5]?.hitsAddend, 12);
});

t.test('decode: descriptor hitsAddend uint64 range and clamping', async (tt) => {
  const h = (v: string): number | undefined =>
    ok(`{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":${v}}]}`).descriptors[0]?.hitsAddend;
  tt.equal(h('"9007199254740991"'), Number.MAX_SAFE_INTEGER);
  tt.equal(h('9007199254740991'), Number.MAX_SAFE_INTEGER);
  tt.equal(h('"9007199254740992"'), Number.MAX_SAFE_INTEGER, 'clamped');
  tt.equal(h('"18446744073709551615"'), Number.MAX_SAFE_INTEGER, 'uint64 max string clamped');
  tt.equal(h('18446744073709551615'), Number.MAX_SAFE_INTEGER, 'uint64 max number clamped');
  // 2^64 reads as the same double as 2^64-1; the text tells them apart.
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":18446744073709551616}]}'),
    'descriptors[0].hitsAddend: out of range for uint64',
    '2^64 as a number',
  );
  tt.equal(
    errMsg('{"domain":"d18446744073709551616","descriptors":[{"entries":[{"key":"k"}],"hitsAddend":18446744073709551615}]}'),
    '',
    'digits inside a string are not a number',
  );
  tt.equal(h('"1.8446744073709551615e19"'), Number.MAX_SAFE_INTEGER);
  tt.equal(h('4294967296'), 4294967296, 'above uint32 is fine for uint64');
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":"18446744073709551616"}]}'),
    'descriptors[0].hitsAddend: out of range for uint64',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":"100000000000000000000"}]}'),
    'descriptors[0].hitsAddend: out of range for uint64',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":1e20}]}'),
    'descriptors[0].hitsAddend: out of range for uint64',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":-1}]}'),
    'descriptors[0].hitsAddend: must not be negative',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":"-1"}]}'),
    'descriptors[0].hitsAddend: must not be negative',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":1.5}]}'),
    'descriptors[0].hitsAddend: expected integer, got a fractional value',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hits_addend":"1.5"}]}'),
    'descriptors[0].hits_addend: expected integer, got a fractional value',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":{"value":1}}]}'),
    'descriptors[0].hitsAddend: expected integer (number or decimal string)',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":true}]}'),
    'descriptors[0].hitsAddend: expected integer (number or decimal string)',
  );
});

t.test('decode: null means default for every field', async (tt) => {
  const r = ok(
    '{"domain":null,"hitsAddend":null,"descriptors":[' +
      '{"entries":[{"key":"k","value":null}],"limit":null,"hitsAddend":null},' +
      '{"entries":null,"limit":{"requestsPerUnit":null,"unit":null}}' +
      ']}',
  );
  tt.strictSame(r, {
    domain: '',
    hitsAddend: 0,
    descriptors: [
      { entries: [{ key: 'k', value: '' }] },
      { entries: [], limit: { requestsPerUnit: 0, unit: Unit.UNKNOWN } },
    ],
  });
  tt.strictSame(ok('{"descriptors":null}'), { domain: '', descriptors: [], hitsAddend: 0 });
});

t.test('decode: empty object and empty arrays are valid', async (tt) => {
  tt.strictSame(ok('{}'), { domain: '', descriptors: [], hitsAddend: 0 });
  tt.strictSame(ok(' \n{ }\t'), { domain: '', descriptors: [], hitsAddend: 0 });
  tt.strictSame(ok('{"domain":"","descriptors":[]}'), { domain: '', descriptors: [], hitsAddend: 0 });
  // min_items on entries is the service's business, not the codec's.
  tt.strictSame(ok('{"domain":"d","descriptors":[{}]}'), { domain: 'd', descriptors: [{ entries: [] }], hitsAddend: 0 });
});

t.test('decode: strings keep unicode and escapes', async (tt) => {
  const r = ok('{"domain":"d\\u00e9","descriptors":[{"entries":[{"key":"k\\"q","value":"v\\n\u2603 "}]}]}');
  tt.equal(r.domain, 'dé');
  tt.strictSame(r.descriptors[0]?.entries, [{ key: 'k"q', value: 'v\n\u2603 ' }]);
});

t.test('decode: invalid JSON and non-object bodies', async (tt) => {
  for (const body of ['', ' ', '{', '{"domain":}', 'nul', "{'domain':'x'}", '{"domain":"x",}', '{}x', '\u0000']) {
    const r = parseRateLimitRequestJson(body);
    tt.ok(r instanceof JsonDecodeError, `rejected: ${JSON.stringify(body)}`);
    if (r instanceof JsonDecodeError) {
      tt.match(r.message, /^invalid JSON: /, `message for ${JSON.stringify(body)}`);
      tt.equal(r.path, '');
    }
  }
  tt.equal(errMsg('null'), 'expected a JSON object, got null');
  tt.equal(errMsg('[]'), 'expected a JSON object, got array');
  tt.equal(errMsg('[{}]'), 'expected a JSON object, got array');
  tt.equal(errMsg('42'), 'expected a JSON object, got number');
  tt.equal(errMsg('"x"'), 'expected a JSON object, got string');
  tt.equal(errMsg('true'), 'expected a JSON object, got boolean');
});

t.test('decode: unknown fields are rejected at every level', async (tt) => {
  const cases: Array<[string, string]> = [
    ['{"domain":"d","extra":1}', 'extra: unknown field'],
    ['{"Domain":"d"}', 'Domain: unknown field'],
    ['{"hitsaddend":1}', 'hitsaddend: unknown field'],
    ['{"overallCode":"OK"}', 'overallCode: unknown field'],
    ['{"__proto__":{}}', '__proto__: unknown field'],
    ['{"a b":1}', '["a b"]: unknown field'],
    ['{"descriptors":[{"entries":[],"foo":null}]}', 'descriptors[0].foo: unknown field'],
    ['{"descriptors":[{"entries":[{"key":"k"}]},{"entry":[]}]}', 'descriptors[1].entry: unknown field'],
    ['{"descriptors":[{"entries":[{"key":"k","value":"v","extra":"x"}]}]}', 'descriptors[0].entries[0].extra: unknown field'],
    ['{"descriptors":[{"entries":[{"key":"k"},{"key":"k","Value":"v"}]}]}', 'descriptors[0].entries[1].Value: unknown field'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requestsPerUnit":1,"name":"x"}}]}', 'descriptors[0].limit.name: unknown field'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requestsperunit":1}}]}', 'descriptors[0].limit.requestsperunit: unknown field'],
  ];
  for (const [body, message] of cases) tt.equal(errMsg(body), message, body);
  // A very long unknown key is truncated in the message.
  const longKey = 'x'.repeat(10000);
  tt.equal(errMsg(`{"${longKey}":1}`), `[${JSON.stringify(`${'x'.repeat(64)}...`)}]: unknown field`);
});

t.test('decode: wrong types are rejected with the field path', async (tt) => {
  const cases: Array<[string, string]> = [
    ['{"domain":5}', 'domain: expected string, got number'],
    ['{"domain":true}', 'domain: expected string, got boolean'],
    ['{"domain":["d"]}', 'domain: expected string, got array'],
    ['{"domain":{}}', 'domain: expected string, got object'],
    ['{"descriptors":{}}', 'descriptors: expected array, got object'],
    ['{"descriptors":"x"}', 'descriptors: expected array, got string'],
    ['{"descriptors":[null]}', 'descriptors[0]: expected object, got null'],
    ['{"descriptors":[{"entries":[{"key":"k"}]},[]]}', 'descriptors[1]: expected object, got array'],
    ['{"descriptors":[{"entries":{}}]}', 'descriptors[0].entries: expected array, got object'],
    ['{"descriptors":[{"entries":"k=v"}]}', 'descriptors[0].entries: expected array, got string'],
    ['{"descriptors":[{"entries":[null]}]}', 'descriptors[0].entries[0]: expected object, got null'],
    ['{"descriptors":[{"entries":[{"key":"k"},"kv"]}]}', 'descriptors[0].entries[1]: expected object, got string'],
    ['{"descriptors":[{"entries":[{"key":1}]}]}', 'descriptors[0].entries[0].key: expected string, got number'],
    ['{"descriptors":[{"entries":[{"key":"k","value":"v"},{"key":"k","value":5}]}]}', 'descriptors[0].entries[1].value: expected string, got number'],
    ['{"descriptors":[{"entries":[{"key":"k","value":false}]}]}', 'descriptors[0].entries[0].value: expected string, got boolean'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":5}]}', 'descriptors[0].limit: expected object, got number'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":[]}]}', 'descriptors[0].limit: expected object, got array'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requestsPerUnit":true}}]}', 'descriptors[0].limit.requestsPerUnit: expected integer (number or decimal string)'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":{"unit":true}}]}', 'descriptors[0].limit.unit: expected enum name (string) or number'],
    ['{"descriptors":[{"entries":[{"key":"k"}],"limit":{"unit":{}}}]}', 'descriptors[0].limit.unit: expected enum name (string) or number'],
    ['{"hitsAddend":[1]}', 'hitsAddend: expected integer (number or decimal string)'],
    ['{"hitsAddend":false}', 'hitsAddend: expected integer (number or decimal string)'],
  ];
  for (const [body, message] of cases) tt.equal(errMsg(body), message, body);
});

t.test('decode: entries must have a non-empty key', async (tt) => {
  tt.equal(errMsg('{"descriptors":[{"entries":[{"value":"v"}]}]}'), 'descriptors[0].entries[0].key: required (non-empty string)');
  tt.equal(errMsg('{"descriptors":[{"entries":[{"key":"a"},{}]}]}'), 'descriptors[0].entries[1].key: required (non-empty string)');
  tt.equal(errMsg('{"descriptors":[{"entries":[{"key":null,"value":"v"}]}]}'), 'descriptors[0].entries[0].key: required (non-empty string)');
  tt.equal(errMsg('{"descriptors":[{"entries":[{"key":"","value":"v"}]}]}'), 'descriptors[0].entries[0].key: required (non-empty string)');
  // An empty value is fine.
  tt.strictSame(ok('{"descriptors":[{"entries":[{"key":"k","value":""}]}]}').descriptors[0]?.entries, [{ key: 'k', value: '' }]);
});

t.test('decode: uint32 range, sign and fraction', async (tt) => {
  const rpu = (v: string): string =>
    errMsg(`{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requestsPerUnit":${v}}}]}`);
  tt.equal(rpu('4294967296'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('"4294967296"'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('"99999999999"'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('1e10'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('1e400'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('-1'), 'descriptors[0].limit.requestsPerUnit: must not be negative');
  tt.equal(rpu('"-1"'), 'descriptors[0].limit.requestsPerUnit: must not be negative');
  tt.equal(rpu('-1e400'), 'descriptors[0].limit.requestsPerUnit: out of range for uint32');
  tt.equal(rpu('1.5'), 'descriptors[0].limit.requestsPerUnit: expected integer, got a fractional value');
  tt.equal(rpu('"1.5"'), 'descriptors[0].limit.requestsPerUnit: expected integer, got a fractional value');
  tt.equal(rpu('"15e-1"'), 'descriptors[0].limit.requestsPerUnit: expected integer, got a fractional value');
  tt.equal(rpu('0.1'), 'descriptors[0].limit.requestsPerUnit: expected integer, got a fractional value');
  // Strings must hold a JSON number exactly, as in protojson.
  for (const bad of ['""', '" 1"', '"1 "', '"+1"', '"01"', '"0x10"', '"1_000"', '"abc"', '"1e"', '".5"', '"NaN"', '"Infinity"']) {
    tt.equal(rpu(bad), 'descriptors[0].limit.requestsPerUnit: string is not a valid JSON number', bad);
  }
  const good = ok('{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requests_per_unit":"4294967295","unit":"HOUR"}}]}');
  tt.strictSame(good.descriptors[0]?.limit, { requestsPerUnit: 4294967295, unit: Unit.HOUR });
  tt.equal(errMsg('{"hitsAddend":4294967296}'), 'hitsAddend: out of range for uint32');
  tt.equal(errMsg('{"hits_addend":"4294967296"}'), 'hits_addend: out of range for uint32');
  tt.equal(errMsg('{"hitsAddend":-3}'), 'hitsAddend: must not be negative');
  tt.equal(errMsg('{"hitsAddend":2.5}'), 'hitsAddend: expected integer, got a fractional value');
  tt.equal(errMsg('{"hitsAddend":"1e99999999999"}'), 'hitsAddend: string is not a valid JSON number');
});

t.test('decode: bad enum values', async (tt) => {
  const unit = (v: string): string => errMsg(`{"descriptors":[{"entries":[{"key":"k"}],"limit":{"unit":${v}}}]}`);
  for (const bad of ['"second"', '"Second"', '"FORTNIGHT"', '""', '"2"', '" SECOND"']) {
    tt.equal(unit(bad), 'descriptors[0].limit.unit: unknown enum name for envoy.type.v3.RateLimitUnit', bad);
  }
  for (const bad of ['8', '-1', '99', '1.5']) {
    tt.equal(unit(bad), 'descriptors[0].limit.unit: unknown enum number for envoy.type.v3.RateLimitUnit', bad);
  }
});

t.test('decode: the same field under both names is a duplicate', async (tt) => {
  tt.equal(errMsg('{"hitsAddend":1,"hits_addend":2}'), 'hits_addend: duplicate field (already given as "hitsAddend")');
  tt.equal(errMsg('{"hits_addend":null,"hitsAddend":2}'), 'hitsAddend: duplicate field (already given as "hits_addend")');
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"hitsAddend":1,"hits_addend":1}]}'),
    'descriptors[0].hits_addend: duplicate field (already given as "hitsAddend")',
  );
  tt.equal(
    errMsg('{"descriptors":[{"entries":[{"key":"k"}],"limit":{"requests_per_unit":1,"requestsPerUnit":1}}]}'),
    'descriptors[0].limit.requestsPerUnit: duplicate field (already given as "requests_per_unit")',
  );
});

t.test('decode: a key given twice in one object is a duplicate, as Go refuses it', async (tt) => {
  tt.equal(errMsg('{"domain":"a","domain":"b"}'), 'domain: duplicate field');
  tt.equal(errMsg('{"descriptors":[{"entries":[{"key":"k","value":"v","value":"w"}]}]}'), 'descriptors[0].entries[0].value: duplicate field');
  tt.equal(errMsg('{"descriptors":[{"entries":[{"key":"k"}]},{"entries":[{"key":"a","key":"b"}]}]}'), 'descriptors[1].entries[0].key: duplicate field');
  tt.equal(errMsg('{"descriptors":[{"limit":{"unit":1,"unit":2},"entries":[{"key":"k"}]}]}'), 'descriptors[0].limit.unit: duplicate field');
  tt.equal(errMsg('{"domain" : "a", "descriptors" : [{"entries":[{"key":"k","value":"say \\":\\" twice \\":\\""}]}]}'), '', 'spaces and quoted colons are not duplicates');
  tt.equal(errMsg('{"domain":"a","descriptors":[{"entries":[{"key":"k"}]},{"entries":[{"key":"k"}]}]}'), '', 'the same key in two objects is fine');
});

t.test('decode: errors are values with path and reason, never throws', async (tt) => {
  const r = parseRateLimitRequestJson('{"descriptors":[{"entries":[{"key":"a","value":"b"},{"key":"c","value":1}]}]}');
  tt.ok(r instanceof JsonDecodeError);
  tt.ok(isJsonDecodeError(r));
  tt.notOk(isJsonDecodeError({ domain: '', descriptors: [], hitsAddend: 0 }));
  if (r instanceof JsonDecodeError) {
    tt.equal(r.message, 'descriptors[0].entries[1].value: expected string, got number');
    tt.equal(r.path, 'descriptors[0].entries[1].value');
    tt.equal(r.reason, 'expected string, got number');
    tt.equal(r.name, 'JsonDecodeError');
    tt.equal(String(r), 'JsonDecodeError: descriptors[0].entries[1].value: expected string, got number');
  }
  // The first error in document order is reported.
  tt.equal(errMsg('{"domain":1,"bogus":2}'), 'domain: expected string, got number');
  tt.equal(errMsg('{"bogus":2,"domain":1}'), 'bogus: unknown field');
});

t.test('decode: 10,000 descriptors', async (tt) => {
  const parts: string[] = [];
  for (let i = 0; i < 10000; i++) {
    parts.push(`{"entries":[{"key":"k","value":"v${i}"},{"key":"user","value":"u"}],"hitsAddend":"${i % 3}"}`);
  }
  const body = `{"domain":"big","descriptors":[${parts.join(',')}],"hitsAddend":1}`;
  const r = ok(body);
  tt.equal(r.domain, 'big');
  tt.equal(r.descriptors.length, 10000);
  tt.strictSame(r.descriptors[0], { entries: [{ key: 'k', value: 'v0' }, { key: 'user', value: 'u' }], hitsAddend: 0 });
  tt.strictSame(r.descriptors[9999], { entries: [{ key: 'k', value: 'v9999' }, { key: 'user', value: 'u' }], hitsAddend: 0 });
  tt.equal(r.descriptors[5000]?.entries[0]?.value, 'v5000');
  tt.equal(r.descriptors[5000]?.hitsAddend, 2);
  // An error deep into the list names the right index.
  const bad = `{"descriptors":[${parts.slice(0, 9999).join(',')},{"entries":[{"key":"k","value":1}]}]}`;
  tt.equal(errMsg(bad), 'descriptors[9999].entries[0].value: expected string, got number');
});

t.test('decode: deeply nested junk is rejected without a crash', async (tt) => {
  const depth = 100000;
  const nestedArrays = '['.repeat(depth) + ']'.repeat(depth);
  const nestedObjects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  tt.equal(errMsg(`{"domain":"d","junk":${nestedArrays}}`), 'junk: unknown field');
  tt.equal(errMsg(`{"junk":${nestedObjects},"domain":"d"}`), 'junk: unknown field');
  tt.equal(
    errMsg(`{"descriptors":[{"entries":[{"key":"k"}],"x":${nestedArrays}}]}`),
    'descriptors[0].x: unknown field',
  );
  tt.equal(errMsg(`{"descriptors":${nestedArrays}}`), 'descriptors[0]: expected object, got array');
  tt.equal(errMsg(`{"descriptors":[{"entries":${nestedArrays}}]}`), 'descriptors[0].entries[0]: expected object, got array');
  tt.equal(errMsg(`{"domain":${nestedObjects}}`), 'domain: expected string, got object');
  tt.equal(errMsg(`{"descriptors":[{"entries":[{"key":"k"}],"limit":${nestedObjects}}]}`), 'descriptors[0].limit.a: unknown field');
  tt.equal(errMsg(nestedArrays), 'expected a JSON object, got array');
  // Unbalanced deep input is just invalid JSON.
  tt.match(errMsg('['.repeat(depth)), /^invalid JSON: /);
});

// ---------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------

function resp(partial: Partial<RateLimitResponse>): RateLimitResponse {
  return { overallCode: Code.UNKNOWN, statuses: [], responseHeadersToAdd: [], ...partial };
}

t.test('encode: the exact bodies of the upstream tests', async (tt) => {
  tt.equal(encodeRateLimitResponseJson(resp({ overallCode: Code.OK })), '{"overallCode":"OK"}');
  tt.equal(encodeRateLimitResponseJson(resp({ overallCode: Code.OVER_LIMIT })), '{"overallCode":"OVER_LIMIT"}');
  tt.equal(encodeRateLimitResponseJson(resp({})), '{}');
});

t.test('encode: a full upstream /json response byte for byte', async (tt) => {
  const expected =
    '{"overallCode":"OVER_LIMIT","statuses":[{"code":"OVER_LIMIT","currentLimit":{"name":"specific_limit","requestsPerUnit":5,"unit":"SECOND"},"durationUntilReset":"1s"},{"code":"OK","currentLimit":{"requestsPerUnit":20,"unit":"MINUTE"},"limitRemaining":19,"durationUntilReset":"37s"},{"code":"OK"},{"code":"OK","limitRemaining":4294967295}],"responseHeadersToAdd":[{"key":"RateLimit-Limit","value":"5"},{"key":"RateLimit-Remaining","value":"0"},{"key":"RateLimit-Reset","value":"1"}]}';
  const response: RateLimitResponse = {
    overallCode: Code.OVER_LIMIT,
    statuses: [
      {
        code: Code.OVER_LIMIT,
        currentLimit: { name: 'specific_limit', requestsPerUnit: 5, unit: Unit.SECOND },
        limitRemaining: 0,
        durationUntilResetSeconds: 1,
      },
      {
        code: Code.OK,
        currentLimit: { name: '', requestsPerUnit: 20, unit: Unit.MINUTE },
        limitRemaining: 19,
        durationUntilResetSeconds: 37,
      },
      { code: Code.OK, limitRemaining: 0 },
      { code: Code.OK, limitRemaining: 4294967295 },
    ],
    responseHeadersToAdd: [
      { key: 'RateLimit-Limit', value: '5' },
      { key: 'RateLimit-Remaining', value: '0' },
      { key: 'RateLimit-Reset', value: '1' },
    ],
  };
  const out = encodeRateLimitResponseJson(response);
  tt.equal(out, expected);
  tt.strictSame(JSON.parse(out), JSON.parse(expected));
});

t.test('encode: every field and every default omission', async (tt) => {
  // UNKNOWN overall code with statuses: overallCode omitted, statuses first.
  tt.equal(
    encodeRateLimitResponseJson(resp({ statuses: [{ code: Code.UNKNOWN, limitRemaining: 0 }] })),
    '{"statuses":[{}]}',
  );
  // Only headers.
  tt.equal(
    encodeRateLimitResponseJson(resp({ responseHeadersToAdd: [{ key: 'a', value: 'b' }] })),
    '{"responseHeadersToAdd":[{"key":"a","value":"b"}]}',
  );
  // Empty header key / value are omitted like any default string.
  tt.equal(
    encodeRateLimitResponseJson(
      resp({
        overallCode: Code.OK,
        responseHeadersToAdd: [
          { key: 'k', value: '' },
          { key: '', value: 'v' },
          { key: '', value: '' },
        ],
      }),
    ),
    '{"overallCode":"OK","responseHeadersToAdd":[{"key":"k"},{"value":"v"},{}]}',
  );
  // currentLimit with every sub-field default is still present as {}.
  tt.equal(
    encodeRateLimitResponseJson(
      resp({
        overallCode: Code.OK,
        statuses: [
          {
            code: Code.OK,
            currentLimit: { name: '', requestsPerUnit: 0, unit: Unit.UNKNOWN },
            limitRemaining: 0,
            durationUntilResetSeconds: 0,
          },
        ],
      }),
    ),
    '{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{},"durationUntilReset":"0s"}]}',
  );
  // Name only / unit only.
  tt.equal(
    encodeRateLimitResponseJson(
      resp({
        statuses: [
          { code: Code.OVER_LIMIT, currentLimit: { name: 'n', requestsPerUnit: 0, unit: Unit.UNKNOWN }, limitRemaining: 0 },
          { code: Code.OK, currentLimit: { name: '', requestsPerUnit: 0, unit: Unit.DAY }, limitRemaining: 3 },
        ],
      }),
    ),
    '{"statuses":[{"code":"OVER_LIMIT","currentLimit":{"name":"n"}},{"code":"OK","currentLimit":{"unit":"DAY"},"limitRemaining":3}]}',
  );
  // Every unit name.
  const units: Array<[Unit, string]> = [
    [Unit.SECOND, 'SECOND'],
    [Unit.MINUTE, 'MINUTE'],
    [Unit.HOUR, 'HOUR'],
    [Unit.DAY, 'DAY'],
    [Unit.MONTH, 'MONTH'],
    [Unit.YEAR, 'YEAR'],
    [Unit.WEEK, 'WEEK'],
  ];
  for (const [unit, name] of units) {
    tt.equal(
      encodeRateLimitResponseJson(
        resp({
          overallCode: Code.OK,
          statuses: [
            {
              code: Code.OK,
              currentLimit: { name: 'r', requestsPerUnit: 10, unit },
              limitRemaining: 9,
              durationUntilResetSeconds: 60,
            },
          ],
        }),
      ),
      `{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"name":"r","requestsPerUnit":10,"unit":"${name}"},"limitRemaining":9,"durationUntilReset":"60s"}]}`,
      name,
    );
  }
  // Values outside the enums are written as numbers, as Go does.
  tt.equal(
    encodeRateLimitResponseJson(
      resp({
        overallCode: 9 as Code,
        statuses: [{ code: 5 as Code, currentLimit: { name: '', requestsPerUnit: 1, unit: 42 as Unit }, limitRemaining: 0 }],
      }),
    ),
    '{"overallCode":9,"statuses":[{"code":5,"currentLimit":{"requestsPerUnit":1,"unit":42}}]}',
  );
  // Large uint32 values and durations.
  tt.equal(
    encodeRateLimitResponseJson(
      resp({
        overallCode: Code.OK,
        statuses: [
          {
            code: Code.OK,
            currentLimit: { name: '', requestsPerUnit: 4294967295, unit: Unit.YEAR },
            limitRemaining: 4294967294,
            durationUntilResetSeconds: 31536000,
          },
        ],
      }),
    ),
    '{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":4294967295,"unit":"YEAR"},"limitRemaining":4294967294,"durationUntilReset":"31536000s"}]}',
  );
});

t.test('encode: user strings are escaped like protojson', async (tt) => {
  const out = encodeRateLimitResponseJson(
    resp({
      overallCode: Code.OK,
      statuses: [
        { code: Code.OK, currentLimit: { name: 'a"b\\c\n\u0001<&>é', requestsPerUnit: 1, unit: Unit.SECOND }, limitRemaining: 0 },
      ],
      responseHeadersToAdd: [{ key: 'X-"q"', value: 'tab\there' }],
    }),
  );
  tt.equal(
    out,
    '{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"name":"a\\"b\\\\c\\n\\u0001<&>é","requestsPerUnit":1,"unit":"SECOND"}}],"responseHeadersToAdd":[{"key":"X-\\"q\\"","value":"tab\\there"}]}',
  );
  const parsed = JSON.parse(out) as { statuses: Array<{ currentLimit: { name: string } }> };
  tt.equal(parsed.statuses[0]?.currentLimit.name, 'a"b\\c\n\u0001<&>é');
});

t.test('encode: Duration formatting', async (tt) => {
  tt.equal(formatDurationJson(0), '"0s"');
  tt.equal(formatDurationJson(-0), '"0s"');
  tt.equal(formatDurationJson(1), '"1s"');
  tt.equal(formatDurationJson(58), '"58s"');
  tt.equal(formatDurationJson(1.5), '"1.500s"');
  tt.equal(formatDurationJson(0.000001), '"0.000001s"');
  tt.equal(formatDurationJson(2.000000001), '"2.000000001s"');
  tt.equal(formatDurationJson(-1.25), '"-1.250s"');
  tt.equal(formatDurationJson(-3), '"-3s"');
});

t.test('round trip: request body with 10,000 statuses encodes and parses back', async (tt) => {
  const statuses = Array.from({ length: 10000 }, (_, i) => ({
    code: i % 2 === 0 ? Code.OK : Code.OVER_LIMIT,
    currentLimit: { name: '', requestsPerUnit: 100, unit: Unit.MINUTE },
    limitRemaining: i % 2 === 0 ? 100 - (i % 100) : 0,
    durationUntilResetSeconds: 30,
  }));
  const out = encodeRateLimitResponseJson(resp({ overallCode: Code.OVER_LIMIT, statuses }));
  const parsed = JSON.parse(out) as { overallCode: string; statuses: Array<Record<string, unknown>> };
  tt.equal(parsed.overallCode, 'OVER_LIMIT');
  tt.equal(parsed.statuses.length, 10000);
  tt.strictSame(parsed.statuses[1], {
    code: 'OVER_LIMIT',
    currentLimit: { requestsPerUnit: 100, unit: 'MINUTE' },
    durationUntilReset: '30s',
  });
  tt.strictSame(parsed.statuses[2], {
    code: 'OK',
    currentLimit: { requestsPerUnit: 100, unit: 'MINUTE' },
    limitRemaining: 98,
    durationUntilReset: '30s',
  });
});

t.test('encode: one limit object under every code, and durations on both sides of the cache', async (tt) => {
  // The encoder keeps a frozen (configured) limit's JSON after the first use; the same object
  // must still be encoded per code, and durations outside the cached whole-second range take the
  // slow path. The same statuses with an unfrozen (override) limit skip the cache.
  for (const limit of [Object.freeze({ name: 'shared', requestsPerUnit: 7, unit: Unit.HOUR }), { name: 'shared', requestsPerUnit: 7, unit: Unit.HOUR }]) {
    const status = (code: Code, durationUntilResetSeconds: number) => ({ code, currentLimit: limit, limitRemaining: code === Code.OK ? 3 : 0, durationUntilResetSeconds });
    const opening = '"currentLimit":{"name":"shared","requestsPerUnit":7,"unit":"HOUR"}';
    for (let pass = 0; pass < 2; pass++) {
      tt.equal(
        encodeRateLimitResponseJson(resp({ statuses: [status(Code.OK, 4095), status(Code.OVER_LIMIT, 4096), status(Code.UNKNOWN, 86400), status(Code.OK, 1.5)] })),
        `{"statuses":[{"code":"OK",${opening},"limitRemaining":3,"durationUntilReset":"4095s"},` +
          `{"code":"OVER_LIMIT",${opening},"durationUntilReset":"4096s"},` +
          `{${opening},"durationUntilReset":"86400s"},` +
          `{"code":"OK",${opening},"limitRemaining":3,"durationUntilReset":"1.500s"}]}`,
        `pass ${pass + 1}`,
      );
    }
    tt.equal(encodeRateLimitResponseJson(resp({ statuses: [status(Code.OK, 0)] })), `{"statuses":[{"code":"OK",${opening},"limitRemaining":3,"durationUntilReset":"0s"}]}`);
  }
});

t.test('encode: the bytes are the UTF-8 of the text, in any script, at any size', async (tt) => {
  const limit = (name: string) => Object.freeze({ name, requestsPerUnit: 7, unit: Unit.HOUR });
  const status = (name: string, limitRemaining = 3) => ({ code: Code.OK, currentLimit: limit(name), limitRemaining, durationUntilResetSeconds: 9 });
  const many = Array.from({ length: 300 }, (_, i) => status(`limit_${i}_é`, i * 1_000_003));
  const cases: Array<[string, RateLimitResponse, string?]> = [
    ['no statuses', resp({ overallCode: Code.OK }), '{"overallCode":"OK"}'],
    ['no limit', resp({ overallCode: Code.OK, statuses: [{ code: Code.OK, limitRemaining: 0 }] }), '{"overallCode":"OK","statuses":[{"code":"OK"}]}'],
    ['an ASCII name with characters JSON escapes', resp({ overallCode: Code.OK, statuses: [status('a"b\\c\u0001')] })],
    ['an accented name after an ASCII one', resp({ overallCode: Code.OK, statuses: [status('plain'), status('Pathétique')] })],
    ['a name outside the BMP', resp({ overallCode: Code.OK, statuses: [status('🚦')] })],
    ['a lone surrogate, escaped as JSON.stringify does', resp({ overallCode: Code.OK, statuses: [status('\ud800')] }), '{"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"name":"\\ud800","requestsPerUnit":7,"unit":"HOUR"},"limitRemaining":3,"durationUntilReset":"9s"}]}'],
    ['an unfrozen limit in another script', resp({ statuses: [{ code: Code.OVER_LIMIT, currentLimit: { name: 'лимит', requestsPerUnit: 1, unit: Unit.DAY }, limitRemaining: 0 }] })],
    ['a header value in another script', resp({ overallCode: Code.OK, statuses: [status('')], responseHeadersToAdd: [{ key: 'X-Note', value: 'лимит' }] })],
    ['metadata in another script', resp({ overallCode: Code.OK, dynamicMetadata: { note: '限制' } })],
    ['300 statuses, past the first buffer', resp({ overallCode: Code.OVER_LIMIT, statuses: many })],
  ];
  for (const [what, response, exact] of cases) {
    const text = encodeRateLimitResponseJson(response);
    if (exact !== undefined) tt.equal(text, exact, `${what}: text`);
    const bytes = encodeRateLimitResponseJsonBytes(response);
    tt.same(Buffer.from(bytes), Buffer.from(text, 'utf8'), `${what}: bytes`);
    tt.same(JSON.parse(text), JSON.parse(Buffer.from(bytes).toString('utf8')), `${what}: parses`);
  }
  const big = JSON.parse(encodeRateLimitResponseJson(resp({ statuses: many }))) as { statuses: Array<{ limitRemaining?: number }> };
  tt.same(big.statuses.map((s) => s.limitRemaining ?? 0), many.map((s) => s.limitRemaining), 'every count, digit for digit');
});

t.test('encode: counts of every size, and what is not a count, as Go writes them', async (tt) => {
  const counts = [1, 9, 10, 99, 100, 12345, 99999, 100000, 4294967295, 4294967296, 2 ** 53 - 1, 2 ** 53, 1.5, -1, 1e21];
  for (const limitRemaining of counts) {
    const text = encodeRateLimitResponseJson(resp({ statuses: [{ code: Code.OK, limitRemaining }] }));
    tt.equal(text, `{"statuses":[{"code":"OK","limitRemaining":${String(limitRemaining)}}]}`, String(limitRemaining));
  }
});

t.test('encode: the bytes are lent, the next answer is written over them', async (tt) => {
  const first = encodeRateLimitResponseJsonBytes(resp({ overallCode: Code.OK }));
  const kept = Buffer.from(first).toString();
  encodeRateLimitResponseJsonBytes(resp({ overallCode: Code.OVER_LIMIT }));
  tt.not(Buffer.from(first).toString(), kept, 'the first view now shows the second answer');
  tt.equal(kept, '{"overallCode":"OK"}');
});
