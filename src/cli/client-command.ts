/**
 * `ratelimit-client`: sends one ShouldRateLimit call over gRPC and prints the answer
 * (upstream's `ratelimit_client`). Always `hits_addend: 1`.
 *
 *   ratelimit-client -dial_string localhost:8081 -domain basic -descriptors key1=foo
 *   dial string: localhost:8081
 *   domain: basic
 *   descriptors: [{"entries":[{"key":"key1","value":"foo"}]}]
 *   response: {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{...},...}]}
 *
 * The response is printed as proto3 JSON on one line (upstream prints Go's proto text), the
 * same form `/json` answers with. Exit codes: 0 when a response came back (whatever its
 * code), 1 with `error: rpc error: code = <Go code name> desc = <message>` on stderr when the
 * call failed (including an unreachable server and the `-timeout` deadline), 2 for flag
 * errors (usage on stderr); `-h` prints the usage and exits 0.
 */
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { decodeRateLimitResponse, encodeRateLimitRequest, rlsProtoRoot, SHOULD_RATE_LIMIT_PATH } from '../ratelimit/grpc/index.js';
import { FlagSet, flagExitCode } from './flags.js';
import { goFileError, type CliIo } from './io.js';
import { messageToJson } from './proto-json.js';

export const CLIENT_PROGRAM = 'ratelimit-client';
export const DEFAULT_DIAL_STRING = 'localhost:8081';
export const DEFAULT_TIMEOUT_MS = 5000;

export interface DescriptorEntry {
  key: string;
  value: string;
}

export interface Descriptor {
  entries: DescriptorEntry[];
}

/**
 * One `-descriptors` value: `k=v,k2=v2`, split on `,` and each pair on its first `=`
 * (`a=b=c` is key `a`, value `b=c`; upstream refuses it). A pair without `=` is an error.
 */
export function parseDescriptor(text: string): Descriptor {
  const entries = text.split(',').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) throw new Error('invalid descriptor list');
    return { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
  return { entries };
}

/** grpc-go's names of the status codes (`codes.Code.String()`). */
const GO_CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

/** A failed call as grpc-go prints a status error: `rpc error: code = Unknown desc = ...`. */
export function formatRpcError(code: number, details: string): string {
  return `rpc error: code = ${GO_CODE_NAMES[code] ?? `Code(${code})`} desc = ${details}`;
}

export interface TlsFiles {
  /** PEM bundle of the CAs that may sign the server certificate; absent: Node's default roots. */
  ca?: Buffer;
  /** Client certificate chain and key, for mutual TLS (both or neither). */
  cert?: Buffer;
  key?: Buffer;
  /** Name checked against the server certificate instead of the dial string's host. */
  serverName?: string;
}

export interface RlsCallOptions {
  /** A grpc target: `host:port`, `unix:/path`, `unix:///path`, `dns:///host:port`. */
  target: string;
  domain: string;
  descriptors: Descriptor[];
  timeoutMs: number;
  /** Absent: plaintext. */
  tls?: TlsFiles;
}

export type RlsCallResult = { ok: true; response: Record<string, unknown> } | { ok: false; code: number; details: string };

/** One ShouldRateLimit call with `hits_addend: 1` and a deadline of `timeoutMs`. Never throws. */
export async function callShouldRateLimit(options: RlsCallOptions): Promise<RlsCallResult> {
  let client: grpc.Client;
  try {
    const channelOptions: grpc.ChannelOptions = {};
    let credentials = grpc.credentials.createInsecure();
    if (options.tls !== undefined) {
      const { ca, cert, key, serverName } = options.tls;
      credentials = grpc.credentials.createSsl(ca ?? null, key ?? null, cert ?? null);
      if (serverName !== undefined && serverName !== '') {
        channelOptions['grpc.ssl_target_name_override'] = serverName;
        channelOptions['grpc.default_authority'] = serverName;
      }
    }
    client = new grpc.Client(options.target, credentials, channelOptions);
  } catch (error) {
    return { ok: false, code: grpc.status.INVALID_ARGUMENT, details: `cannot dial ${JSON.stringify(options.target)}: ${(error as Error).message}` };
  }
  const request = encodeRateLimitRequest({ domain: options.domain, descriptors: options.descriptors, hitsAddend: 1 });
  try {
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      client.makeUnaryRequest(
        SHOULD_RATE_LIMIT_PATH,
        (message: Buffer) => message,
        (message: Buffer) => message,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + options.timeoutMs },
        (error, response) => (error ? reject(error) : resolve(response as Buffer)),
      );
    });
    try {
      return { ok: true, response: decodeRateLimitResponse(bytes) };
    } catch (error) {
      return { ok: false, code: grpc.status.INTERNAL, details: `cannot decode the response: ${(error as Error).message}` };
    }
  } catch (error) {
    const serviceError = error as grpc.ServiceError;
    return { ok: false, code: serviceError.code ?? grpc.status.UNKNOWN, details: serviceError.details ?? String(error) };
  } finally {
    client.close();
  }
}

const RESPONSE_TYPE = rlsProtoRoot().lookupType('envoy.service.ratelimit.v3.RateLimitResponse');

/** A decoded RateLimitResponse as one line of proto3 JSON (the `/json` form). */
export function responseJson(response: Record<string, unknown>): string {
  return JSON.stringify(messageToJson(RESPONSE_TYPE, response));
}

/** Runs the command; resolves with the exit code. */
export async function runClient(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = new FlagSet(CLIENT_PROGRAM);
  const dialString = flags.string('dial_string', DEFAULT_DIAL_STRING, 'url of ratelimit server in <host>:<port> form, or unix:<socket path>');
  const domain = flags.string('domain', '', 'rate limit configuration domain to query');
  const descriptors: Descriptor[] = [];
  flags.func('descriptors', 'descriptor list to query in <key>=<value>,<key>=<value>,... form; repeat the flag for several descriptors', (text) => {
    descriptors.push(parseDescriptor(text));
  });
  const useTls = flags.bool('grpc-use-tls', false, 'Use TLS for connection to server');
  const caFile = flags.string('grpc-server-ca-file', '', 'path to the server CA file for TLS connection');
  const certFile = flags.string('grpc-cert-file', '', 'path to the client cert file for TLS connection');
  const keyFile = flags.string('grpc-key-file', '', 'path to the client key for TLS connection');
  const serverName = flags.string('grpc-server-name', '', 'name to verify the server certificate against, instead of the host of -dial_string');
  const timeout = flags.duration('timeout', DEFAULT_TIMEOUT_MS, 'deadline of the call, connection included', (ms) => (ms > 0 ? undefined : 'must be greater than 0'));

  let outcome = flags.parse(argv);
  if (outcome.status === 'ok') {
    if (outcome.args.length > 0) outcome = flags.failure(`unexpected argument: ${outcome.args[0] as string}`);
    else if (dialString.value === '') outcome = flags.failure('-dial_string must not be empty');
    else if (useTls.value && (certFile.value === '') !== (keyFile.value === '')) outcome = flags.failure('-grpc-cert-file and -grpc-key-file must be given together');
  }
  if (outcome.status !== 'ok') {
    io.stderr(outcome.stderr);
    return flagExitCode(outcome);
  }

  // Like upstream, the TLS file flags only count with -grpc-use-tls.
  let tls: TlsFiles | undefined;
  if (useTls.value) {
    tls = {};
    for (const [flag, slot] of [
      [caFile, 'ca'],
      [certFile, 'cert'],
      [keyFile, 'key'],
    ] as const) {
      if (flag.value === '') continue;
      try {
        tls[slot] = readFileSync(flag.value);
      } catch (error) {
        io.stderr(`error: cannot read -${flag.name}: ${goFileError('open', flag.value, error)}\n`);
        return 1;
      }
    }
    if (serverName.value !== '') tls.serverName = serverName.value;
  }

  io.stdout(`dial string: ${dialString.value}\n`);
  io.stdout(`domain: ${domain.value}\n`);
  io.stdout(`descriptors: ${JSON.stringify(descriptors)}\n`);
  const options: RlsCallOptions = { target: dialString.value, domain: domain.value, descriptors, timeoutMs: timeout.value };
  if (tls !== undefined) options.tls = tls;
  const result = await callShouldRateLimit(options);
  if (!result.ok) {
    io.stderr(`error: ${formatRpcError(result.code, result.details)}\n`);
    return 1;
  }
  io.stdout(`response: ${responseJson(result.response)}\n`);
  return 0;
}
