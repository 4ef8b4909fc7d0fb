/**
 * Ceiling (b): a bare grpc-js server for ShouldRateLimit with identity serializers: the request
 * bytes are not decoded and the reply is one pre-encoded RateLimitResponse (the service's own
 * encoder, same bytes as the service sends). So this is grpc-js + node:http2 cost only; the
 * service additionally pays protobuf decode/encode. Prints `LISTENING <port>`.
 */
import * as grpc from '@grpc/grpc-js';
import { GRPC_TRANSPORT_OPTIONS } from '../src/transports/grpc/index.js';
import { SHOULD_RATE_LIMIT_PATH, encodeRateLimitResponse } from '../src/ratelimit/grpc/index.js';
import { BENCH_LIMIT_PER_SECOND } from '../bench/bench-request.js';
import { Code, Unit, type RateLimitResponse } from '../src/engine/index.js';

/** The service's own answer to the bench request. */
const FIXED_RESPONSE: RateLimitResponse = {
  overallCode: Code.OK,
  statuses: [
    {
      code: Code.OK,
      currentLimit: { name: '', requestsPerUnit: BENCH_LIMIT_PER_SECOND, unit: Unit.SECOND },
      limitRemaining: BENCH_LIMIT_PER_SECOND - 1,
      durationUntilResetSeconds: 1,
    },
  ],
  responseHeadersToAdd: [],
};

const REPLY = encodeRateLimitResponse(FIXED_RESPONSE);
const identity = (bytes: Buffer): Buffer => bytes;

const definition: grpc.ServiceDefinition = {
  ShouldRateLimit: {
    path: SHOULD_RATE_LIMIT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

// The service's transport options (channelz off), so the ceiling is grpc-js at its cheapest.
const server = new grpc.Server(GRPC_TRANSPORT_OPTIONS);
server.addService(definition, {
  ShouldRateLimit: ((_call, callback) => callback(null, REPLY)) satisfies grpc.handleUnaryCall<Buffer, Buffer>,
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error !== null) {
    console.error(`bare grpc-js server could not listen: ${error.message}`);
    process.exit(1);
  }
  console.log(`LISTENING ${port}`);
});

process.once('SIGTERM', () => process.exit(0));
