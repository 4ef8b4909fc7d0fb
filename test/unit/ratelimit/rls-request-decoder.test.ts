import t from 'tap';
import { decodeRateLimitRequestBytes, MalformedMessage } from '../../../src/ratelimit/grpc/rls-request-decoder.js';
import { encodeRateLimitRequest } from '../../../src/ratelimit/grpc/index.js';

t.test('decodes what protobufjs encodes, every field', async (t) => {
  const bytes = encodeRateLimitRequest({
    domain: 'dömain',
    hitsAddend: 4000000000,
    descriptors: [
      { entries: [{ key: 'k1', value: 'v1' }, { key: 'k2', value: '' }] },
      { entries: [{ key: 'k', value: 'ü' }], limit: { requestsPerUnit: 42, unit: 3 }, hitsAddend: { value: 0 } },
      { entries: [{ key: 'big', value: 'x' }], hitsAddend: { value: '18446744073709551615' } },
      { entries: [] },
    ],
  });
  t.same(decodeRateLimitRequestBytes(bytes), {
    domain: 'dömain',
    hitsAddend: 4000000000,
    descriptors: [
      { entries: [{ key: 'k1', value: 'v1' }, { key: 'k2', value: '' }] },
      { entries: [{ key: 'k', value: 'ü' }], limit: { requestsPerUnit: 42, unit: 3 }, hitsAddend: 0 },
      { entries: [{ key: 'big', value: 'x' }], hitsAddend: Number.MAX_SAFE_INTEGER },
      { entries: [] },
    ],
  });
  t.same(decodeRateLimitRequestBytes(Buffer.alloc(0)), { domain: '', descriptors: [], hitsAddend: 0 }, 'empty message');
});

t.test('unknown fields of every wire type are skipped', async (t) => {
  const known = encodeRateLimitRequest({ domain: 'd' });
  const unknown = Buffer.from([
    0x20, 0x96, 0x01, // field 4 varint 150
    0x29, 1, 2, 3, 4, 5, 6, 7, 8, // field 5 fixed64
    0x32, 0x02, 0x61, 0x62, // field 6 bytes "ab"
    0x3d, 1, 2, 3, 4, // field 7 fixed32
  ]);
  t.same(decodeRateLimitRequestBytes(Buffer.concat([unknown, known])), { domain: 'd', descriptors: [], hitsAddend: 0 });
});

t.test('sub-messages with unknown fields inside them, nested and repeated, decode field by field', async (t) => {
  // Each sub-message narrows the one reader to its own length and restores the outer end after
  // it: a mistake there would misplace every field that follows a sub-message.
  const entry = [0x0a, 0x01, 0x6b, 0x18, 0x05, 0x12, 0x01, 0x76]; // key "k", unknown varint field 3, value "v"
  const ld = (field: number, body: number[]) => [(field << 3) | 2, body.length, ...body];
  const first = [
    ...ld(1, entry),
    ...ld(2, [0x08, 0x07, 0x10, 0x01]), // limit: 7 per SECOND
    0x2d, 1, 2, 3, 4, // unknown fixed32 field 5
    ...ld(3, [0x08, 0x03]), // hits_addend 3
    ...ld(1, entry),
  ];
  const bytes = Buffer.from([0x0a, 0x01, 0x64, ...ld(2, first), ...ld(2, ld(1, entry)), 0x18, 0x02]);
  t.same(decodeRateLimitRequestBytes(bytes), {
    domain: 'd',
    descriptors: [
      { entries: [{ key: 'k', value: 'v' }, { key: 'k', value: 'v' }], limit: { requestsPerUnit: 7, unit: 1 }, hitsAddend: 3 },
      { entries: [{ key: 'k', value: 'v' }] },
    ],
    hitsAddend: 2,
  });
});

const malformed: Array<[string, number[], RegExp]> = [
  ['a string longer than the message', [0x0a, 0x10, 0x61, 0x62], /past the end/],
  ['a truncated varint', [0x18, 0x80], /truncated varint/],
  ['a varint of 11 bytes', [0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], /longer than 10 bytes/],
  ['the domain sent as a varint', [0x08, 0x01], /wire type 0 where 2 belongs/],
  ['hits_addend sent as a string', [0x1a, 0x01, 0x31], /wire type 2 where 0 belongs/],
  ['field number 0', [0x02, 0x00], /field number 0/],
  ['an unknown field of wire type 7', [0x4f, 0x01], /invalid wire type 7/],
  ['an unknown field that starts a group', [0x4b], /groups are not allowed/],
  ['a truncated fixed64', [0x29, 1, 2], /truncated fixed-width/],
  ['a descriptor whose entry runs past it', [0x12, 0x03, 0x0a, 0x05, 0x0a], /past the end/],
  // The entry would end inside the message, but not inside its descriptor.
  ['an entry that runs past its descriptor but not past the message', [0x12, 0x02, 0x0a, 0x03, 0x18, 0x01, 0x18, 0x01, 0x18], /past the end/],
  ['a string that is not UTF-8', [0x0a, 0x02, 0xc3, 0x28], /not valid UTF-8/],
];
for (const [what, bytes, message] of malformed) {
  t.test(`refuses ${what}`, async (t) => {
    t.throws(() => decodeRateLimitRequestBytes(Buffer.from(bytes)), { name: MalformedMessage.name, message });
  });
}
