import { ERROR_CATALOGUE, type BodyForm } from './catalogue.js';
import type { ServiceError } from './service-error.js';

/** A catalogue error as an HTTP response, in the body form of the API it belongs to. */
export interface HttpErrorReply {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  /** Empty for none. */
  body: string;
}

const REASON: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  502: 'Bad Gateway',
  505: 'HTTP Version Not Supported',
};

/** `404 Not Found`: the status line uWS writes (it takes the whole line). */
export function statusLine(status: number): string {
  const reason = REASON[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}

const TEXT_PLAIN = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';

/** Header values may carry only visible ASCII; a reason quotes client input, so mask the rest. */
export function headerSafe(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 200 ? `${safe.slice(0, 200)}...` : safe;
}

/**
 * Go's json.Encoder with HTML escaping off, as Alertmanager writes: like JSON.stringify, but
 * U+2028 and U+2029 escaped, and a newline after the value.
 */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029')) + '\n';
}

const RENDER: Readonly<Record<BodyForm, (error: ServiceError, status: number, apiCode: number | string | undefined) => HttpErrorReply>> = {
  // Upstream answers every bad /json request with a bare status text; the reason rides in a header.
  ratelimit: (error, status) => ({
    status,
    headers: [
      ['Content-Type', TEXT_PLAIN],
      ['X-Ratelimit-Error', headerSafe(error.message)],
    ],
    body: `${REASON[status] ?? 'Error'}\n`,
  }),
  // go-openapi sends codes of 600 and more (validation) as 422.
  'alertmanager-object': (error, _status, apiCode) => {
    const code = typeof apiCode === 'number' ? apiCode : _status;
    return {
      status: code >= 600 ? 422 : code,
      headers: [
        ['Content-Type', JSON_TYPE],
        ['Cache-Control', 'no-store'],
      ],
      body: goJson({ code, message: error.message }),
    };
  },
  'alertmanager-string': (error, status) => ({
    status,
    headers: [
      ['Content-Type', JSON_TYPE],
      ['Cache-Control', 'no-store'],
    ],
    body: goJson(error.message),
  }),
  flat: (error, status, apiCode) => ({
    status,
    headers: [['Content-Type', JSON_TYPE]],
    body: JSON.stringify({ code: apiCode ?? error.code, message: error.message, ...(error.details?.param === undefined ? {} : { param: error.details.param }) }),
  }),
  text: (error, status) => ({
    status,
    headers: [
      ['Content-Type', TEXT_PLAIN],
      ['X-Content-Type-Options', 'nosniff'],
    ],
    body: `${error.message}\n`,
  }),
};

/** The one mapping from a catalogue error to an HTTP response, used by every HTTP listener. */
export function renderHttpError(error: ServiceError): HttpErrorReply {
  const entry = ERROR_CATALOGUE[error.code];
  const reply = RENDER[entry.body](error, entry.http, 'apiCode' in entry ? entry.apiCode : undefined);
  const extra: Array<readonly [string, string]> = [];
  if (error.details?.allow !== undefined) extra.push(['Allow', error.details.allow]);
  if (error.details?.authenticate !== undefined) extra.push(['WWW-Authenticate', error.details.authenticate]);
  if (error.details?.retryAfterSeconds !== undefined) extra.push(['Retry-After', String(error.details.retryAfterSeconds)]);
  return extra.length === 0 ? reply : { ...reply, headers: [...reply.headers, ...extra] };
}
