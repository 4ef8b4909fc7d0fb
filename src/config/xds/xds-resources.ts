import { failed } from '../../errors/index.js';
import { buildConfig, type DecodedSource } from '../build-config.js';
import type { LoadConfigResult, LoadOptions } from '../parse-config.js';
import type { RawDescriptor, RawRateLimit } from '../typed-decode.js';
import { metadataOfStruct, type ProtoStruct } from './struct-object.js';
import { RATE_LIMIT_CONFIG_TYPE_URL, xdsTypes } from './xds-protos.js';

/** One resource of a discovery response: the Any's type URL and the RateLimitConfig's bytes. */
export interface XdsResource {
  typeUrl: string;
  value: Uint8Array;
}

/** RateLimitConfig as protobufjs' toObject gives it (proto3 defaults filled in, enums as numbers). */
interface ProtoConfig {
  name: string;
  domain: string;
  descriptors: ProtoDescriptor[];
}

interface ProtoDescriptor {
  key: string;
  value: string;
  rateLimit: ProtoPolicy | null;
  descriptors: ProtoDescriptor[];
  shadowMode: boolean;
  detailedMetric: boolean;
  quotaMode: boolean;
  metadata: ProtoStruct | null;
}

interface ProtoPolicy {
  unit: number;
  requestsPerUnit: number;
  unlimited: boolean;
  name: string;
  replaces: Array<{ name: string }>;
}

/**
 * The rules of one discovery response, validated exactly as rules files are: each
 * RateLimitConfig is one "file" named after its `name`, and the same semantic checks give the
 * same messages (`<name>: <message>`). As upstream, the unit reaches the checks as its enum
 * name, so an unlimited rule with UNKNOWN is valid; `share_threshold` and `value_to_metric` have
 * no field in the proto; `quota_mode` is field 7 and `metadata` (a Struct) field 8.
 */
export function loadXdsConfig(resources: readonly XdsResource[], options: LoadOptions): LoadConfigResult {
  const decoded: DecodedSource[] = [];
  for (const [index, resource] of resources.entries()) {
    const source = decodeResource(resource, index);
    if (typeof source === 'string') return failed('CFG_INVALID', source);
    decoded.push(source);
  }
  return buildConfig(decoded, options.mergeDomainConfigs);
}

/** The decoded resource, or the message saying why it is not a RateLimitConfig. */
function decodeResource(resource: XdsResource, index: number): DecodedSource | string {
  if (resource.typeUrl !== RATE_LIMIT_CONFIG_TYPE_URL) {
    return `resource ${index}: type ${JSON.stringify(resource.typeUrl)} is not ${RATE_LIMIT_CONFIG_TYPE_URL}`;
  }
  const { rateLimitConfig, root } = xdsTypes();
  let config: ProtoConfig;
  try {
    config = rateLimitConfig.toObject(rateLimitConfig.decode(resource.value), { defaults: true, enums: Number, longs: Number, oneofs: true }) as ProtoConfig;
  } catch (error) {
    return `resource ${index}: cannot decode RateLimitConfig: ${(error as Error).message}`;
  }
  const units = root.lookupEnum('ratelimit.config.ratelimit.v3.RateLimitUnit').valuesById;
  // Go's String() of an enum value it does not know is its number, which no unit name matches.
  const unitName = (unit: number): string => units[unit] ?? String(unit);
  const descriptor = (d: ProtoDescriptor): RawDescriptor => ({
    key: d.key,
    value: d.value,
    rateLimit: d.rateLimit === null ? undefined : policy(d.rateLimit, unitName),
    descriptors: d.descriptors.map(descriptor),
    shadowMode: d.shadowMode,
    detailedMetric: d.detailedMetric,
    shareThreshold: false,
    quotaMode: d.quotaMode,
    valueToMetric: false,
    metadata: d.metadata === null ? undefined : metadataOfStruct(d.metadata),
  });
  return { name: config.name, root: { domain: config.domain, descriptors: config.descriptors.map(descriptor) } };
}

function policy(p: ProtoPolicy, unitName: (unit: number) => string): RawRateLimit {
  return { unit: unitName(p.unit), requestsPerUnit: p.requestsPerUnit, unlimited: p.unlimited, name: p.name, replaces: p.replaces };
}
