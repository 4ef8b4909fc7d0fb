import type { MetadataStruct } from './metadata.js';
import type { Unit } from './units.js';

/** `RateLimitResponse.Code`. */
export enum Code {
  UNKNOWN = 0,
  OK = 1,
  OVER_LIMIT = 2,
}

/** `RateLimitResponse.RateLimit`. */
export interface CurrentLimit {
  /** Rule name (`rate_limit.name`); empty when the rule has none. */
  name: string;
  requestsPerUnit: number;
  unit: Unit;
}

/** `RateLimitResponse.DescriptorStatus`. */
export interface DescriptorStatus {
  code: Code;
  currentLimit?: CurrentLimit;
  /** 0 when over the limit or when there is no limit. */
  limitRemaining: number;
  /** Whole seconds until the window resets; present whenever currentLimit is. */
  durationUntilResetSeconds?: number;
}

/** `envoy.config.core.v3.HeaderValue`. */
export interface HeaderValue {
  key: string;
  value: string;
}

/** `envoy.service.ratelimit.v3.RateLimitResponse` (the fields this service fills). */
export interface RateLimitResponse {
  overallCode: Code;
  statuses: DescriptorStatus[];
  responseHeadersToAdd: HeaderValue[];
  /** `dynamic_metadata` (RESPONSE_DYNAMIC_METADATA); absent when disabled. */
  dynamicMetadata?: MetadataStruct;
  /** The `RateLimit-Policy` header value /json answers with (RESPONSE_LIMIT_POLICY); absent when disabled or no limit applied. */
  limitPolicy?: string;
}
