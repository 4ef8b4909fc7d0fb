/**
 * Alertmanager's web configuration file (Prometheus exporter-toolkit's format): reading and
 * checking it, watching it and the files it names, and what each TLS implementation needs.
 */
export { parseWebConfig } from './parse.js';
export type { WebConfigParse } from './parse.js';
export { filesOf, loadTlsMaterial, loadWebConfig } from './load.js';
export type { LoadedWebConfig, TlsMaterial, WebConfigLoad } from './load.js';
export { WebConfigWatcher } from './watcher.js';
export type { WebConfigWatcherOptions } from './watcher.js';
export { nodeTlsPlan, subjectAltNames, tlsEngineFor } from './tls-plan.js';
export type { NodeTlsPlan, TlsEngine } from './tls-plan.js';
export { UwsTlsFiles } from './uws-tls-files.js';
export { GO_CIPHER_SUITES, GO_CURVES, opensslCipherList } from './go-tls-names.js';
export type { ClientAuthType, TlsServerConfig, TlsVersionName, WebConfig } from './model.js';
