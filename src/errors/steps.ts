import { ServiceError } from './service-error.js';

/**
 * Steps that stop on an expected failure, so a function reads top to bottom instead of as a
 * chain of `if (x instanceof ServiceError) return x;`:
 *
 *     return attempt(async () => {
 *       const body = unwrap(jsonObjectBody(request));
 *       const access = unwrap(await classFor(store, request, grant));
 *       ...
 *     });
 *
 * `unwrap` hands back the value of a step that gave one; a step that gave a `ServiceError` ends
 * the enclosing `attempt`, which returns that error as its value. The error travels inside
 * `attempt` only (as a private sentinel, not an `Error`, so it costs no stack trace) and never
 * leaves it: whatever calls the function still receives `T | ServiceError`, as the design rule
 * wants (expected failures are values). Anything else thrown inside, a bug or a store that
 * failed, is not caught here: it goes on to the caller's error handling (for a route, the API's
 * internal error). A route's handler is an `attempt` around its operation: `apiHandler`
 * (src/transports/http/handoff/api-handler.ts).
 *
 * `unwrap` belongs in the body of an `attempt`, or of an API operation (whose route's handler
 * runs it inside one), never in a helper they call: a helper returns `T | ServiceError` like any
 * other step, so that it can be called from anywhere. An `unwrap` outside any `attempt` surfaces
 * as an unexpected exception, which says so.
 */
class Stopped {
  constructor(readonly error: ServiceError) {}

  toString(): string {
    return `unwrap() outside attempt(): ${this.error.toString()}`;
  }
}

/** The value of a step, or, when the step failed, the end of the enclosing `attempt` with its error. */
export function unwrap<T>(outcome: T | ServiceError): Exclude<T, ServiceError> {
  if (outcome instanceof ServiceError) throw new Stopped(outcome);
  return outcome as Exclude<T, ServiceError>;
}

/**
 * Runs `steps`, returning what they return, or the `ServiceError` a step stopped on. An
 * asynchronous `steps` gives a promise of the same.
 */
export function attempt<T>(steps: () => Promise<T>): Promise<T | ServiceError>;
export function attempt<T>(steps: () => T): T | ServiceError;
export function attempt<T>(steps: () => T | Promise<T>): T | ServiceError | Promise<T | ServiceError> {
  try {
    const outcome = steps();
    return outcome instanceof Promise ? outcome.catch(stoppedError) : outcome;
  } catch (thrown) {
    return stoppedError(thrown);
  }
}

/** The error a step stopped on; anything else thrown is not ours to handle. */
function stoppedError(thrown: unknown): ServiceError {
  if (thrown instanceof Stopped) return thrown.error;
  throw thrown;
}
