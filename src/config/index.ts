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
// xDS (xds/index.ts) is not re-exported: it loads grpc-js and protobufjs, which the rules loader
// thread needs only once an xDS server sends rules.
export type { XdsResource } from './xds/xds-resources.js';
export { findExtensionKey } from './strict-upstream.js';
