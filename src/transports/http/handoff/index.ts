/**
 * The hand-off between HTTP front threads and the API thread that owns the alert and score
 * APIs' state: the front's routes and client, the API thread's router and server, and the
 * messages between them (docs/architecture.md draws the whole path).
 */
export { ApiThreadClient } from './api-thread-client.js';
export type { SendOutcome } from './api-thread-client.js';
export { handoffRoutes } from './handoff-routes.js';
export type { HandoffOptions } from './handoff-routes.js';
export { apiHandler, operationRoutes } from './api-handler.js';
export type { ApiOperation } from './api-handler.js';
export { ApiRouter } from './api-router.js';
export type { RouteMatch } from './api-router.js';
export { ApiThreadServer } from './api-thread-server.js';
export type { ApiThreadLog } from './api-thread-server.js';
export type { ApiDefinition, ApiFileBody, ApiManifest, ApiHandler, ApiOutcome, ApiRequest, ApiResponse, ApiRoute } from './api-route.js';
export type { ForwardedReply, ForwardedRequest } from './messages.js';
