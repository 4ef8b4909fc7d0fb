export { loadSettings, defaultHttpWorkers } from './settings.js';
export type { Settings, ConfigType, DecisionMode, ServedApi } from './settings.js';
export { EnvReader, SettingsError } from './env-reader.js';
export { parseDurationMs } from './duration.js';
export type { StoreSettings } from './store-settings.js';
export type { ObservabilitySettings, StatsSinkKind, StatsProtocol, TracingProtocol } from './observability-settings.js';
export type { ScoreExportSettings } from './score-export-settings.js';
export type { XdsSettings } from './xds-settings.js';
