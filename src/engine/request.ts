import type { Unit } from './units.js';

/** One `key`/`value` pair of a request descriptor. */
export interface DescriptorEntry {
  key: string;
  value: string;
}

/** `RateLimitDescriptor.limit`: a limit sent by the caller that takes priority over configuration. */
export interface LimitOverride {
  requestsPerUnit: number;
  unit: Unit;
}

/** `envoy.extensions.common.ratelimit.v3.RateLimitDescriptor`. */
export interface RequestDescriptor {
  entries: DescriptorEntry[];
  limit?: LimitOverride;
  /** Descriptor-level hits_addend (UInt64Value). `undefined` when unset; 0 means "check without consuming". */
  hitsAddend?: number;
}

/** `envoy.service.ratelimit.v3.RateLimitRequest`. */
export interface RateLimitRequest {
  domain: string;
  descriptors: RequestDescriptor[];
  /** Request-level hits_addend (uint32); 0 or unset counts as 1. */
  hitsAddend: number;
}
