import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import type { ApiRequest, ApiResponse } from '../../transports/http/handoff/index.js';
import { choiceParam } from './query-params.js';
import { jsonResponse } from './responses.js';

/** Flat's cursor pagination: `limit` items from where `next` or `previous` says. */
export interface Page {
  limit: number;
  offset: number;
}

/** An operation's `limit`: its default and its maximum, as the specification gives them. */
export interface PageBounds {
  fallback: number;
  max: number;
}

/** Collections and their scores: 25 by default, at most 100. */
export const COLLECTION_PAGES: PageBounds = { fallback: 25, max: 100 };

/** An opaque cursor: where its page starts in the sorted list. */
const cursorOf = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');

function offsetOf(query: URLSearchParams, name: 'next' | 'previous'): number | undefined | ServiceError {
  const cursor = query.get(name);
  if (cursor === null || cursor === '') return undefined;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match === null ? new ServiceError('SC_BAD_REQUEST', `${name} is not a cursor this service gave`, { param: name }) : Number(match[1]);
}

/** The page a list request asks for, or a 400 naming the parameter. */
export function pageOf(query: URLSearchParams, bounds: PageBounds): Page | ServiceError {
  return attempt(() => {
    const text = query.get('limit');
    const limit = text === null || text === '' ? bounds.fallback : Number(text);
    if (!Number.isInteger(limit) || limit < 1 || limit > bounds.max) return new ServiceError('SC_BAD_REQUEST', `limit must be an integer from 1 to ${bounds.max}`, { param: 'limit' });
    return { limit, offset: unwrap(offsetOf(query, 'next')) ?? unwrap(offsetOf(query, 'previous')) ?? 0 };
  });
}

/** Sorting a list by one of its `fields`, each with the direction it has when `direction` is not given. */
export interface SortRule<T> {
  fields: Readonly<Record<string, { key: (item: T) => string | number; direction: 'asc' | 'desc' }>>;
  /** When `sort` is not given. */
  fallback: string;
}

/** The list in the order `sort` and `direction` ask for, or a 400 naming the parameter. */
export function sortedBy<T>(query: URLSearchParams, items: readonly T[], rule: SortRule<T>): T[] | ServiceError {
  return attempt(() => {
    const name = unwrap(choiceParam(query, 'sort', Object.keys(rule.fields), undefined)) ?? rule.fallback;
    const field = rule.fields[name];
    if (field === undefined) throw new Error(`no sort field ${name}`);
    const direction = unwrap(choiceParam(query, 'direction', ['asc', 'desc'] as const, undefined)) ?? field.direction;
    const sign = direction === 'asc' ? 1 : -1;
    return [...items].sort((a, b) => {
      const x = field.key(a);
      const y = field.key(b);
      return sign * (typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y));
    });
  });
}

/**
 * One page of a sorted list as a JSON array, with the `Link` header's `next` and `previous`
 * URLs (the request's own, with the cursor) where there are more items that way.
 */
export function pagedResponse<T>(absoluteUrl: (path: string) => string, request: ApiRequest, items: readonly T[], page: Page, render: (item: T) => unknown): ApiResponse {
  const linkTo = (offset: number, rel: 'next' | 'previous') => {
    const query = new URLSearchParams(request.query);
    query.delete('next');
    query.delete('previous');
    query.set(rel, cursorOf(offset));
    return `<${absoluteUrl(`${request.path.split('?')[0]}?${query.toString()}`)}>; rel="${rel}"`;
  };
  const links = [
    ...(page.offset + page.limit < items.length ? [linkTo(page.offset + page.limit, 'next')] : []),
    ...(page.offset > 0 ? [linkTo(Math.max(0, page.offset - page.limit), 'previous')] : []),
  ];
  const response = jsonResponse(200, items.slice(page.offset, page.offset + page.limit).map(render));
  return links.length === 0 ? response : { ...response, headers: [...(response.headers ?? []), ['Link', links.join(', ')]] };
}
