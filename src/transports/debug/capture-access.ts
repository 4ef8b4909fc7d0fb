/**
 * Who may take a CPU profile, heap snapshot or trace from the debug port. Those captures hold
 * everything the process holds (score tokens, store passwords, alerts), so they need DEBUG_TOKEN
 * when one is set, and are refused outright on a port that listens beyond loopback without one.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ServiceError } from '../../errors/index.js';

export interface CaptureAccessOptions {
  /** The address the debug server listens on (DEBUG_HOST). */
  host: string;
  /** DEBUG_TOKEN; '' for none. */
  token: string;
}

/** Undefined when the request may take a capture, otherwise the refusal to answer with. */
export type CaptureAccess = (req: IncomingMessage, query: URLSearchParams) => ServiceError | undefined;

/** Whether `host` only ever accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The token a request offers: `Authorization: Bearer <token>`, else `?token=`. */
function offeredToken(req: IncomingMessage, query: URLSearchParams): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
    if (match !== null) return match[1];
  }
  return query.get('token') ?? undefined;
}

/** The answers of an endpoint guarded like the captures, in its own words. */
export interface AccessRefusals {
  /** Beyond loopback without DEBUG_TOKEN. */
  forbidden(host: string): ServiceError;
  /** DEBUG_TOKEN set, and not offered. */
  unauthorized: ServiceError;
}

const CAPTURE_REFUSALS: AccessRefusals = {
  forbidden: (host) =>
    new ServiceError('DBG_FORBIDDEN', `profiles and heap snapshots are off: the debug port listens on ${host}, beyond loopback, and DEBUG_TOKEN is not set`),
  unauthorized: new ServiceError('DBG_UNAUTHORIZED', 'this capture needs DEBUG_TOKEN: send it as a bearer token or ?token=', {
    authenticate: 'Bearer',
  }),
};

export function captureAccess(options: CaptureAccessOptions, refusals: AccessRefusals = CAPTURE_REFUSALS): CaptureAccess {
  if (options.token === '') {
    if (isLoopbackHost(options.host)) return () => undefined;
    const forbidden = refusals.forbidden(options.host);
    return () => forbidden;
  }
  // Digests of equal length, so the comparison takes the same time whatever was offered.
  const expected = digest(options.token);
  const unauthorized = refusals.unauthorized;
  return (req, query) => {
    const offered = offeredToken(req, query);
    return offered !== undefined && timingSafeEqual(digest(offered), expected) ? undefined : unauthorized;
  };
}

/** The request target as logs show it: a `token` query parameter is masked. */
export function loggableTarget(target: string | undefined): string | undefined {
  return target?.replace(/([?&]token=)[^&]*/gi, '$1REDACTED');
}
