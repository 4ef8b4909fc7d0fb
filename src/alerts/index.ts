/** The alert management API (Alertmanager API v2), served on the API thread. */
export { alertsApi } from './alerts-api.js';
export type { AlertsApiParts } from './alerts-api.js';
export type { ReadinessSource } from './health-routes.js';
