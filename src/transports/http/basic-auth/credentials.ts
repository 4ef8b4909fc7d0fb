/** A user name and password from an `Authorization: Basic` header. */
export interface BasicCredentials {
  user: string;
  password: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Go's Request.BasicAuth: `Basic ` in any case, standard base64 with its padding, user and
 * password split at the first colon. Undefined for anything else, and for bytes that are not
 * UTF-8 (bcrypt here hashes a password's UTF-8 bytes; other bytes cannot match a stored hash).
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || header.length < 6 || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const encoded = header.slice(6);
  if (!BASE64.test(encoded)) return undefined;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
