import { goQuote } from '../matchers/index.js';

/**
 * Alertmanager's check of a configured URL (config.parseURL over Go's url.Parse): http or
 * https, a host, and the url.Parse errors people hit (spaces, control characters, bad `%`
 * escapes, a non-numeric port). Undefined when the URL is accepted.
 */
export function checkUrl(text: string): string | undefined {
  const parseError = (reason: string): string => `parse ${goQuote(text)}: ${reason}`;
  if ([...text].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === '\x7f')) return parseError('net/url: invalid control character in URL');
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text);
  if (text.startsWith(':')) return parseError('missing protocol scheme');
  const scheme = schemeMatch?.[1]?.toLowerCase() ?? '';
  const rest = schemeMatch === null ? text : text.slice(schemeMatch[0].length);
  const badEscape = /%(?![0-9a-fA-F]{2})(.{0,2})/s.exec(rest);
  if (badEscape !== null) return parseError(`invalid URL escape ${goQuote('%' + (badEscape[1] ?? ''))}`);
  let host = '';
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split(/[/?#]/, 1)[0] ?? '';
    host = authority.slice(authority.lastIndexOf('@') + 1);
    const port = /^(\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host)?.[2];
    if (port !== undefined && !/^:[0-9]*$/.test(port)) return parseError(`invalid port ${goQuote(port)} after host`);
    const space = [...host].find((c) => c === ' ' || c === '"' || c === '<' || c === '>' || c === '`' || c === '{' || c === '}' || c === '|' || c === '^');
    if (space !== undefined) return parseError(`invalid character ${goQuote(space)} in host name`);
  }
  if (scheme !== 'http' && scheme !== 'https') return `unsupported scheme ${goQuote(scheme)} for URL`;
  if (host === '') return 'missing host for URL';
  return undefined;
}

/** A `host:port` address (smtp_smarthost), as net.SplitHostPort checks it; undefined when valid. */
export function checkHostPort(text: string): string | undefined {
  if (text === '') return undefined;
  const fail = (why: string): string => `address ${text}: ${why}`;
  let host: string;
  let port: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return fail('missing \']\' in address');
    if (end + 1 === text.length) return fail('missing port in address');
    if (text[end + 1] !== ':') return fail('missing port in address');
    host = text.slice(1, end);
    port = text.slice(end + 2);
  } else {
    const colon = text.lastIndexOf(':');
    if (colon < 0) return fail('missing port in address');
    host = text.slice(0, colon);
    port = text.slice(colon + 1);
    if (host.includes(':')) return fail('too many colons in address');
  }
  if (host.includes('[') || host.includes(']')) return fail(`unexpected '[' in address`);
  if (port === '') return `address ${goQuote(text)}: port cannot be empty`;
  return undefined;
}
