/** Alertmanager configuration files: loading, checking, the model the service uses. */
export { loadAlertmanagerConfig, MAX_CONFIG_BYTES, type LoadOptions, type LoadResult } from './load.js';
export type { AlertmanagerConfig, InhibitRule, Receiver, Route, TimeInterval, WebhookConfig } from './model.js';
export { formatDuration, parseDuration } from './duration.js';
