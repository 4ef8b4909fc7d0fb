/**
 * Public face of the configuration folder: YAML sources -> validated plain configuration,
 * where the files are and when they change, and the `/rlconfig` text.
 */
export type { ConfigSource } from './model.js';
export { loadConfig, type LoadConfigResult, type LoadOptions } from './parse-config.js';
export { loaderRoot, readConfigSources, type FileSourceSettings, type RuntimeLocation } from './file-source.js';
export { ConfigWatcher, type ConfigWatcherOptions } from './config-watcher.js';
export { dumpConfig } from './rlconfig-dump.js';
export { childFullKey } from './full-key.js';
export { loadXdsConfig, type XdsResource } from './xds/xds-resources.js';
export { ADS_SERVICE, RATE_LIMIT_CONFIG_TYPE_URL, STREAM_AGGREGATED_RESOURCES_PATH, xdsTypes, type XdsTypes } from './xds/xds-protos.js';
export { AdsClient, type AdsClientOptions, type AdsEvent } from './xds/ads-client.js';
export { findExtensionKey } from './strict-upstream.js';
