export { ERROR_CATALOGUE, RateLimitError, httpStatusOf, grpcStatusOf } from './catalogue.js';
export type { ErrorCode } from './catalogue.js';
