import type { ErrorCode } from './catalogue.js';

export interface ServiceErrorDetails {
  /** The request parameter at fault, where an API reports one (the score API's `param`). */
  readonly param?: string;
  /** For a 405: the `Allow` header, in the spelling of the API's upstream (`GET, HEAD`, `GET,POST`). */
  readonly allow?: string;
  /** For a 401: the `WWW-Authenticate` challenge (`Basic`, `Bearer`). */
  readonly authenticate?: string;
  /** For a 429: the `Retry-After` header, whole seconds until the caller may try again. */
  readonly retryAfterSeconds?: number;
}

/**
 * An expected failure, passed as a value from where it is found to the transport that reports
 * it; never thrown across layers. Deliberately not an `Error`: failing requests on the hot path
 * must not pay for a stack trace.
 */
export class ServiceError<Code extends ErrorCode = ErrorCode> {
  constructor(
    readonly code: Code,
    /** For people: names the field, value or file that was wrong. */
    readonly message: string,
    readonly details?: ServiceErrorDetails,
  ) {}

  toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** The outcome of a step that can fail in an expected way. */
export type Result<T, Code extends ErrorCode = ErrorCode> = { ok: true; value: T } | { ok: false; error: ServiceError<Code> };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function failed<Code extends ErrorCode>(code: Code, message: string): { ok: false; error: ServiceError<Code> } {
  return { ok: false, error: new ServiceError(code, message) };
}
