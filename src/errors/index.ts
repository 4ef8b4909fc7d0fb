export { ERROR_CATALOGUE, catalogueEntry, grpcStatusOf, httpStatusOf } from './catalogue.js';
export type { BodyForm, CatalogueEntry, ErrorCode, ErrorCodeOf } from './catalogue.js';
export { ServiceError, failed, ok } from './service-error.js';
export type { Result, ServiceErrorDetails } from './service-error.js';
export { attempt, unwrap } from './steps.js';
export { headerSafe, renderHttpError, statusLine } from './http-rendering.js';
export type { HttpErrorReply } from './http-rendering.js';
