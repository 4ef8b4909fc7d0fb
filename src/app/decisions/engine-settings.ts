import type { EngineSettings } from '../../engine/index.js';
import type { Settings } from '../../settings/index.js';

/** The part of the settings the decision engine needs (plain data, posted to every thread). */
export function engineSettingsOf(settings: Settings): EngineSettings {
  return {
    nearLimitRatio: settings.nearLimitRatio,
    shadowMode: settings.shadowMode,
    cacheKeyPrefix: settings.cacheKeyPrefix,
    responseHeaders: settings.limitResponseHeadersEnabled
      ? { limit: settings.limitLimitHeader, remaining: settings.limitRemainingHeader, reset: settings.limitResetHeader }
      : undefined,
    maxDescriptorsPerRequest: settings.maxDescriptorsPerRequest,
    localCacheSizeBytes: settings.localCacheSizeBytes,
    stopIncrementWhenOverLimit: settings.stopCacheKeyIncrementWhenOverlimit,
    quotaMode: settings.quotaMode,
    responseDynamicMetadata: settings.responseDynamicMetadata,
    responseLimitPolicy: settings.responseLimitPolicy,
  };
}
