import { ServiceError } from '../../errors/index.js';
import type { ApiRequest, ApiResponse } from '../../transports/http/handoff/index.js';
import { jsonResponse } from './responses.js';

/** Where a page starts and how many items it holds, from the `limit`, `next` and `previous` query parameters. */
export interface PageRequest {
  offset: number;
  limit: number;
}

export const MAX_PAGE_LIMIT = 1000;

const cursorOf = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');

function offsetOf(cursor: string): number | undefined {
  const match = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match === null ? undefined : Number(match[1]);
}

/** The page a list request asks for: `limit` 1-1000 (default `defaultLimit`), and a cursor a previous answer's Link header gave. */
export function pageRequest(query: URLSearchParams, defaultLimit: number): PageRequest | ServiceError {
  const rawLimit = query.get('limit');
  const limit = rawLimit === null || rawLimit === '' ? defaultLimit : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) return new ServiceError('SC_BAD_REQUEST', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, { param: 'limit' });
  for (const name of ['next', 'previous']) {
    const cursor = query.get(name);
    if (cursor === null || cursor === '') continue;
    const offset = offsetOf(cursor);
    if (offset === undefined) return new ServiceError('SC_BAD_REQUEST', `${name} must be a cursor from a Link header of this list`, { param: name });
    return { offset, limit };
  }
  return { offset: 0, limit };
}

/**
 * The page of `items` and its Link header (RFC 8288): `next` and `previous` URLs with the
 * request's other parameters, where there is such a page.
 */
export function pageOf<T>(items: readonly T[], page: PageRequest, request: ApiRequest, absoluteUrl: (path: string) => string): { items: T[]; link: string | undefined } {
  const links: string[] = [];
  const urlWith = (name: 'next' | 'previous', offset: number) => {
    const query = new URLSearchParams(request.query);
    query.delete('next');
    query.delete('previous');
    query.set(name, cursorOf(offset));
    return absoluteUrl(`${request.path.split('?')[0] ?? ''}?${query.toString()}`);
  };
  if (page.offset + page.limit < items.length) links.push(`<${urlWith('next', page.offset + page.limit)}>; rel="next"`);
  if (page.offset > 0) links.push(`<${urlWith('previous', Math.max(0, page.offset - page.limit))}>; rel="previous"`);
  return { items: items.slice(page.offset, page.offset + page.limit), link: links.length === 0 ? undefined : links.join(', ') };
}

/** A page of a list as JSON, with its Link header when there are other pages. */
export function pageResponse(body: unknown[], link: string | undefined): ApiResponse {
  const response = jsonResponse(200, body);
  return link === undefined ? response : { ...response, headers: [...(response.headers ?? []), ['Link', link]] };
}
