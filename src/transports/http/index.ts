/**
 * The generic HTTP front (uWebSockets.js): listening and draining, the route table's entry type,
 * request bodies, and responses, including catalogue errors in their API's form. It knows
 * nothing of what any API does.
 */
export { ListenFailed, startHttpServer } from './http-server.js';
export type { HttpServer, HttpServerOptions, ReconfigurableHttpServer, UwsTlsOptions } from './http-server.js';
export type { HttpRoute, RouteMethod } from './route.js';
export { Exchange } from './exchange.js';
export type { HeaderList } from './exchange.js';
export { InFlight } from './in-flight.js';
export { decode as decodeBodyText, readBodyBytes, readBodyText, readBodyView } from './body-reader.js';
export type { BodyBytesResult, BodyHold, BodyTextResult, BodyViewResult } from './body-reader.js';
export { BodyBudget } from './body-budget.js';
export { loadUws } from './uws.js';
export type { HttpRequest, HttpResponse } from './uws.js';
export { mediaTypeOf, parseJsonBody, parseMultipartBody } from './body-parsers.js';
export type { JsonBody, MultipartBody, MultipartForm, MultipartLimits, UploadedFile } from './body-parsers.js';
export { WebAccess } from './web-access.js';
export type { FrontWebConfig } from './web-access.js';
export { startTlsTerminator } from './tls-terminator.js';
export type { TlsTerminator, TlsTerminatorOptions } from './tls-terminator.js';
