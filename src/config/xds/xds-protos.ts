import type protobuf from 'protobufjs';
import { loadProtos } from '../../transports/grpc/index.js';

/** The one resource type the service asks its xDS management server for. */
export const RATE_LIMIT_CONFIG_TYPE_URL = 'type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig';
export const ADS_SERVICE = 'envoy.service.discovery.v3.AggregatedDiscoveryService';
export const STREAM_AGGREGATED_RESOURCES_PATH = `/${ADS_SERVICE}/StreamAggregatedResources`;

/** The messages of one ADS exchange, and the resource they carry. */
export interface XdsTypes {
  root: protobuf.Root;
  discoveryRequest: protobuf.Type;
  discoveryResponse: protobuf.Type;
  rateLimitConfig: protobuf.Type;
}

/** The ADS service and RateLimitConfig protos (proto/envoy/service/discovery/v3, proto/ratelimit/config). */
export function xdsTypes(): XdsTypes {
  const root = loadProtos(['envoy/service/discovery/v3/ads.proto', 'ratelimit/config/ratelimit/v3/rls_conf.proto']);
  return {
    root,
    discoveryRequest: root.lookupType('envoy.service.discovery.v3.DiscoveryRequest'),
    discoveryResponse: root.lookupType('envoy.service.discovery.v3.DiscoveryResponse'),
    rateLimitConfig: root.lookupType('ratelimit.config.ratelimit.v3.RateLimitConfig'),
  };
}
