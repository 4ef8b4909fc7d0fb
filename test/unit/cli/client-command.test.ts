import t from 'tap';
import { formatRpcError, parseDescriptor, responseJson, runClient } from '../../../src/cli/client-command.js';
import { bufferIo } from '../../../src/cli/io.js';
import { decodeRateLimitResponse, rlsProtoRoot } from '../../../src/ratelimit/grpc/index.js';

const ResponseType = rlsProtoRoot().lookupType('envoy.service.ratelimit.v3.RateLimitResponse');

/** What the client prints for a response a server encoded from `object`. */
function printed(object: Record<string, unknown>): unknown {
  const bytes = Buffer.from(ResponseType.encode(ResponseType.fromObject(object)).finish());
  return JSON.parse(responseJson(decodeRateLimitResponse(bytes)));
}

t.test('parseDescriptor: pairs split on "," and each on its first "="', async (t) => {
  t.same(parseDescriptor('key1=value1'), { entries: [{ key: 'key1', value: 'value1' }] });
  t.same(parseDescriptor('a=1,b=2'), { entries: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
  t.same(parseDescriptor('a=b=c'), { entries: [{ key: 'a', value: 'b=c' }] });
  t.same(parseDescriptor('a=,=b'), { entries: [{ key: 'a', value: '' }, { key: '', value: 'b' }] });
  t.throws(() => parseDescriptor('a'), new Error('invalid descriptor list'));
  t.throws(() => parseDescriptor('a=1,'), new Error('invalid descriptor list'));
  t.throws(() => parseDescriptor(''), new Error('invalid descriptor list'));
});

t.test('formatRpcError: grpc-go status text', async (t) => {
  t.equal(formatRpcError(2, 'rate limit domain must not be empty'), 'rpc error: code = Unknown desc = rate limit domain must not be empty');
  t.equal(formatRpcError(4, 'Deadline exceeded'), 'rpc error: code = DeadlineExceeded desc = Deadline exceeded');
  t.equal(formatRpcError(14, 'down'), 'rpc error: code = Unavailable desc = down');
  t.equal(formatRpcError(16, 'who'), 'rpc error: code = Unauthenticated desc = who');
  t.equal(formatRpcError(99, 'x'), 'rpc error: code = Code(99) desc = x');
});

t.test('responseJson: the proto3 JSON mapping, as /json writes it', async (t) => {
  t.same(
    printed({
      overallCode: 2,
      statuses: [
        { code: 1, currentLimit: { requestsPerUnit: 50, unit: 1 }, limitRemaining: 49, durationUntilReset: { seconds: 1 } },
        { code: 2, currentLimit: { name: 'per_min', requestsPerUnit: 1, unit: 2 }, durationUntilReset: { seconds: 20 } },
        { code: 1 },
      ],
      responseHeadersToAdd: [{ key: 'RateLimit-Limit', value: '1' }],
    }),
    {
      overallCode: 'OVER_LIMIT',
      statuses: [
        { code: 'OK', currentLimit: { requestsPerUnit: 50, unit: 'SECOND' }, limitRemaining: 49, durationUntilReset: '1s' },
        { code: 'OVER_LIMIT', currentLimit: { name: 'per_min', requestsPerUnit: 1, unit: 'MINUTE' }, durationUntilReset: '20s' },
        { code: 'OK' },
      ],
      responseHeadersToAdd: [{ key: 'RateLimit-Limit', value: '1' }],
    },
  );
  t.same(printed({}), {}, 'an empty response');
  const text = responseJson(decodeRateLimitResponse(Buffer.from(ResponseType.encode(ResponseType.fromObject({ overallCode: 1, statuses: [{ code: 1 }] })).finish())));
  t.equal(text, '{"overallCode":"OK","statuses":[{"code":"OK"}]}', 'compact, declaration order');
});

t.test('responseJson: fields other servers fill (quota, timestamps, bytes, struct, fractions)', async (t) => {
  t.same(
    printed({
      overallCode: 1,
      statuses: [{ code: 1, durationUntilReset: { seconds: 1, nanos: 500_000_000 }, quota: { requests: 7, validUntil: { seconds: 86_400, nanos: 1_000_000 }, id: 'q1' } }],
      requestHeadersToAdd: [{ key: 'x-a', value: 'b' }],
      rawBody: Buffer.from('hi'),
      dynamicMetadata: {
        fields: {
          s: { stringValue: 'v' },
          n: { numberValue: 1.5 },
          b: { boolValue: true },
          z: { nullValue: 0 },
          l: { listValue: { values: [{ numberValue: 1 }, { stringValue: 'two' }] } },
          o: { structValue: { fields: { inner: { boolValue: false } } } },
        },
      },
      quota: { requests: 3 },
    }),
    {
      overallCode: 'OK',
      statuses: [{ code: 'OK', durationUntilReset: '1.500s', quota: { requests: 7, validUntil: '1970-01-02T00:00:00.001Z', id: 'q1' } }],
      requestHeadersToAdd: [{ key: 'x-a', value: 'b' }],
      rawBody: 'aGk=',
      dynamicMetadata: { s: 'v', n: 1.5, b: true, z: null, l: [1, 'two'], o: { inner: false } },
      quota: { requests: 3 },
    },
  );
});

t.test('runClient: flag problems exit 2 with the usage, before any call', async (t) => {
  const cases: Array<[string[], string]> = [
    [['-descriptors', 'nokey'], 'invalid value "nokey" for flag -descriptors: invalid descriptor list'],
    [['-timeout', '0'], 'invalid value "0" for flag -timeout: must be greater than 0'],
    [['-domain', 'd', 'extra'], 'unexpected argument: extra'],
    [['-dial_string='], '-dial_string must not be empty'],
    [['-grpc-use-tls', '-grpc-cert-file', 'c.pem'], '-grpc-cert-file and -grpc-key-file must be given together'],
    [['-bogus'], 'flag provided but not defined: -bogus'],
  ];
  for (const [argv, message] of cases) {
    const io = bufferIo();
    t.equal(await runClient(argv, io), 2, argv.join(' '));
    t.equal(io.out, '', `${argv.join(' ')}: nothing on stdout`);
    t.ok(io.err.startsWith(`${message}\nUsage of ratelimit-client:\n`), `${argv.join(' ')}: ${JSON.stringify(io.err.split('\n')[0])}`);
  }
});

t.test('runClient: an unreadable TLS file exits 1 naming the flag and the file', async (t) => {
  const io = bufferIo();
  t.equal(await runClient(['-grpc-use-tls', '-grpc-server-ca-file', '/nonexistent/ca.pem'], io), 1);
  t.equal(io.err, 'error: cannot read -grpc-server-ca-file: open /nonexistent/ca.pem: no such file or directory\n');
  t.equal(io.out, '');
});
