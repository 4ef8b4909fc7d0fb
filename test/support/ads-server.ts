/** A real ADS management server (grpc-js) for tests: pushes RateLimitConfig sets and records what the client sends. */
import * as grpc from '@grpc/grpc-js';
import { RATE_LIMIT_CONFIG_TYPE_URL, STREAM_AGGREGATED_RESOURCES_PATH, xdsTypes } from '../../src/config/xds/index.js';

export interface ReceivedRequest {
  versionInfo: string;
  responseNonce: string;
  typeUrl: string;
  node: { id: string; metadata?: { fields: Record<string, { stringValue: string }> } } | null;
  errorDetail: { code: number; message: string } | null;
  metadata: Record<string, string>;
}

/** What the tests need of an ADS server, whichever implementation runs it. */
export interface AdsServerLike {
  readonly requests: ReceivedRequest[];
  readonly port: number;
  push(version: string, configs: Array<Record<string, unknown>>): void;
  requestCount(count: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
}

export class AdsServer implements AdsServerLike {
  readonly requests: ReceivedRequest[] = [];
  private readonly types = xdsTypes();
  private readonly server = new grpc.Server();
  private streams = new Set<grpc.ServerDuplexStream<Uint8Array, Uint8Array>>();
  private nonce = 0;
  private waiters: Array<() => void> = [];
  port = 0;

  async listen(credentials = grpc.ServerCredentials.createInsecure(), port = 0): Promise<number> {
    const { discoveryRequest } = this.types;
    this.server.addService(
      { StreamAggregatedResources: { path: STREAM_AGGREGATED_RESOURCES_PATH, requestStream: true, responseStream: true, requestSerialize: (b: Uint8Array) => Buffer.from(b), requestDeserialize: (b: Buffer) => b, responseSerialize: (b: Uint8Array) => Buffer.from(b), responseDeserialize: (b: Buffer) => b } },
      {
        StreamAggregatedResources: (call: grpc.ServerDuplexStream<Uint8Array, Uint8Array>) => {
          this.streams.add(call);
          const metadata = Object.fromEntries(Object.entries(call.metadata.getMap()).map(([k, v]) => [k, String(v)]));
          call.on('data', (bytes: Uint8Array) => {
            const request = discoveryRequest.toObject(discoveryRequest.decode(bytes), { defaults: true }) as Omit<ReceivedRequest, 'metadata'>;
            this.requests.push({ ...request, metadata });
            for (const wake of this.waiters.splice(0)) wake();
          });
          call.on('end', () => call.end());
          call.on('close', () => this.streams.delete(call));
          call.on('error', () => this.streams.delete(call));
        },
      },
    );
    this.port = await new Promise<number>((resolve, reject) => this.server.bindAsync(`127.0.0.1:${port}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound))));
    return this.port;
  }

  /** Sends every open stream the full set of resources at `version`. */
  push(version: string, configs: Array<Record<string, unknown>>): void {
    const { discoveryResponse, rateLimitConfig } = this.types;
    const resources = configs.map((config) => ({ type_url: RATE_LIMIT_CONFIG_TYPE_URL, value: rateLimitConfig.encode(rateLimitConfig.fromObject(config)).finish() }));
    const bytes = discoveryResponse.encode(discoveryResponse.fromObject({ versionInfo: version, typeUrl: RATE_LIMIT_CONFIG_TYPE_URL, nonce: String(++this.nonce), resources })).finish();
    for (const stream of this.streams) stream.write(bytes);
  }

  /** Resolves once `count` requests have arrived in all. */
  async requestCount(count: number): Promise<ReceivedRequest[]> {
    while (this.requests.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.requests;
  }

  async stop(): Promise<void> {
    this.server.forceShutdown();
  }
}
