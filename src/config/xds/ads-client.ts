import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { RATE_LIMIT_CONFIG_TYPE_URL, STREAM_AGGREGATED_RESOURCES_PATH, xdsTypes } from './xds-protos.js';
import type { XdsResource } from './xds-resources.js';

/** Where the ADS server is and how to reach it (the CONFIG_GRPC_XDS_* and XDS_CLIENT_* settings). */
export interface AdsClientOptions {
  serverUrl: string;
  nodeId: string;
  nodeMetadata: ReadonlyArray<readonly [string, string]>;
  headers: ReadonlyArray<readonly [string, string]>;
  tls?: { caFile: string; certFile: string; keyFile: string; san: string };
  /** 0: grpc-js's own limit. */
  maxMessageBytes: number;
  backoff: BackoffPolicy;
  /** Wait before dialling again when the server could not be reached at all. */
  connectRetryMs: number;
  /** Validates and applies one response's resources; a string is the NACK's error text. */
  apply: (resources: XdsResource[], version: string) => Promise<string | undefined>;
  /** Stream events, for the log. */
  onEvent?: (event: AdsEvent) => void;
}

export type AdsEvent =
  | { kind: 'acked'; version: string }
  | { kind: 'nacked'; version: string; error: string }
  | { kind: 'stream-failed'; error: string; retryInMs: number };

interface DecodedResponse {
  versionInfo: string;
  nonce: string;
  typeUrl: string;
  resources: Array<{ type_url: string; value: Uint8Array }>;
}

/** google.rpc.Code INVALID_ARGUMENT: a NACK says the resources were refused. */
const INVALID_ARGUMENT = 3;

/**
 * A state-of-the-world ADS client for RateLimitConfig: subscribes, hands each response's full set
 * of resources to `apply`, ACKs what applied and NACKs what did not with its error text (keeping
 * the last accepted version), and reopens a failed stream after its backoff.
 */
export class AdsClient {
  private readonly types = xdsTypes();
  private readonly client: grpc.Client;
  private call: grpc.ClientDuplexStream<Uint8Array, DecodedResponse> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private acceptedVersion = '';
  private failures = 0;
  private closed = false;

  constructor(private readonly options: AdsClientOptions) {
    const channelOptions: grpc.ChannelOptions = {};
    if (options.maxMessageBytes > 0) channelOptions['grpc.max_receive_message_length'] = options.maxMessageBytes;
    if (options.tls !== undefined && options.tls.san !== '') channelOptions['grpc.ssl_target_name_override'] = options.tls.san;
    this.client = new grpc.Client(options.serverUrl, credentialsOf(options.tls), channelOptions);
  }

  start(): void {
    this.open();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.call?.cancel();
    this.client.close();
  }

  private open(): void {
    const metadata = new grpc.Metadata();
    for (const [key, value] of this.options.headers) metadata.add(key, value);
    const { discoveryRequest, discoveryResponse } = this.types;
    const call = this.client.makeBidiStreamRequest<Uint8Array, DecodedResponse>(
      STREAM_AGGREGATED_RESOURCES_PATH,
      (bytes) => Buffer.from(bytes),
      (bytes) => discoveryResponse.toObject(discoveryResponse.decode(bytes), { defaults: true }) as DecodedResponse,
      metadata,
    );
    this.call = call;
    let answered = false;
    call.on('data', (response: DecodedResponse) => {
      answered = true;
      this.failures = 0;
      void this.handle(call, response);
    });
    call.on('error', (error: grpc.ServiceError) => this.retry(call, error.message, answered || error.code !== grpc.status.UNAVAILABLE));
    call.on('end', () => this.retry(call, 'the server ended the stream', true));
    call.write(discoveryRequest.encode(discoveryRequest.fromObject(this.request({}))).finish());
  }

  private async handle(call: grpc.ClientDuplexStream<Uint8Array, DecodedResponse>, response: DecodedResponse): Promise<void> {
    const resources = response.resources.map((r) => ({ typeUrl: r.type_url, value: r.value }));
    const error = await this.options.apply(resources, response.versionInfo).catch((e: unknown) => String(e));
    if (this.call !== call || this.closed) return;
    const { discoveryRequest } = this.types;
    if (error === undefined) {
      this.acceptedVersion = response.versionInfo;
      this.options.onEvent?.({ kind: 'acked', version: response.versionInfo });
    } else {
      this.options.onEvent?.({ kind: 'nacked', version: response.versionInfo, error });
    }
    const reply = this.request({ responseNonce: response.nonce, ...(error === undefined ? {} : { errorDetail: { code: INVALID_ARGUMENT, message: error } }) });
    call.write(discoveryRequest.encode(discoveryRequest.fromObject(reply)).finish());
  }

  /** A request for RateLimitConfig naming the version in force (upstream ACKs and NACKs alike). */
  private request(extra: Record<string, unknown>): Record<string, unknown> {
    const metadata = Object.fromEntries(this.options.nodeMetadata.map(([key, value]) => [key, { stringValue: value }]));
    return { versionInfo: this.acceptedVersion, node: { id: this.options.nodeId, metadata: { fields: metadata } }, typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, ...extra };
  }

  /** Once per stream: a server never reached waits the connect retry interval, a failed stream its backoff. */
  private retry(call: grpc.ClientDuplexStream<Uint8Array, DecodedResponse>, error: string, reached: boolean): void {
    if (this.call !== call || this.closed) return;
    this.call = undefined;
    call.cancel();
    const retryInMs = reached ? backoffDelayMs(this.options.backoff, this.failures++) : this.options.connectRetryMs * (0.5 + Math.random());
    this.options.onEvent?.({ kind: 'stream-failed', error, retryInMs });
    this.timer = setTimeout(() => this.open(), retryInMs);
  }
}

function credentialsOf(tls: AdsClientOptions['tls']): grpc.ChannelCredentials {
  if (tls === undefined) return grpc.credentials.createInsecure();
  const read = (file: string): Buffer | null => (file === '' ? null : readFileSync(file));
  return grpc.credentials.createSsl(read(tls.caFile), read(tls.keyFile), read(tls.certFile));
}
