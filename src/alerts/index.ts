/** The alert management API (Alertmanager API v2), served on the API thread. */
export { alertsApi } from './alerts-api.js';
export type { AlertsApiParts } from './alerts-api.js';
export { AlertsService } from './alerts-service.js';
export type { AlertsServiceOptions } from './alerts-service.js';
export type { ReadinessSource } from './health-routes.js';
export { loadAlertmanagerConfig } from './config/index.js';
export type { AlertmanagerConfig } from './config/model.js';
export { SqliteStateStore } from './state/sqlite-state-store.js';
export type { AlertStateStore, StateChange } from './state/alert-state-store.js';
export { Slicer } from './slicer.js';
export { Notifier } from './notify/notifier.js';
export type { NotifierOptions } from './notify/notifier.js';
export { SqliteNotificationStore } from './notify/notification-store.js';
export { unsupportedIntegrations } from './notify/receivers/index.js';
