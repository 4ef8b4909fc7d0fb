import type { EnvReader } from './env-reader.js';

/**
 * Settings of what a decision answers beyond the statuses: quota mode and the dynamic metadata
 * (upstream's), and the policy of the limit that fired (an extension).
 */
export interface AnswerSettings {
  /** QUOTA_MODE: every descriptor that is not unlimited is a quota descriptor. */
  quotaMode: boolean;
  /** RESPONSE_DYNAMIC_METADATA: fill the answer's dynamic_metadata. */
  responseDynamicMetadata: boolean;
  /** RESPONSE_LIMIT_POLICY: `firedBy` in the dynamic metadata and `RateLimit-Policy` on /json. */
  responseLimitPolicy: boolean;
}

export function readAnswerSettings(env: EnvReader): AnswerSettings {
  return {
    quotaMode: env.bool(['QUOTA_MODE'], false),
    responseDynamicMetadata: env.bool(['RESPONSE_DYNAMIC_METADATA'], false),
    responseLimitPolicy: env.bool(['RESPONSE_LIMIT_POLICY'], false),
  };
}
