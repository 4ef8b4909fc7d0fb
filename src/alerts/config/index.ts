/** Alertmanager configuration files: loading, checking, the model the service uses. */
export { loadAlertmanagerConfig, MAX_CONFIG_BYTES, type LoadOptions, type LoadResult } from './load.js';
export type { AlertmanagerConfig, InhibitRule, Receiver, Route, TimeInterval, WebhookConfig } from './model.js';
export { formatDuration, parseDuration } from './duration.js';
export type { EmailConfig } from './email-config.js';
export type { SlackAction, SlackConfig, SlackField } from './slack-config.js';
export type { PagerdutyConfig } from './pagerduty-config.js';
export type { MsTeamsConfig } from './msteams-config.js';
export type { HttpConfig, TlsConfig } from './http-config.js';
