import { ServiceError, unwrap } from '../../errors/index.js';
import { operationRoutes, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import type { AttemptQuery, NotificationAttempt } from '../notify/notification-store.js';
import { formatTime, parseTime } from '../time.js';
import { jsonResponse } from './responses.js';

/** Attempts listed when `limit` is not given, and the most one request may ask for. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export interface HistoryParts {
  history(query: AttemptQuery): NotificationAttempt[];
}

function badRequest(message: string): ServiceError {
  return new ServiceError('AM_BAD_REQUEST', message);
}

function timeParam(query: URLSearchParams, name: string): number | undefined | ServiceError {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const parsed = parseTime(text);
  return parsed.ok && Number.isFinite(parsed.ms) ? parsed.ms : badRequest(`${name} must be an RFC 3339 time, got ${JSON.stringify(text)}`);
}

function limitParam(query: URLSearchParams): number | ServiceError {
  const text = query.get('limit');
  if (text === null || text === '') return DEFAULT_LIMIT;
  const limit = Number(text);
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT ? limit : badRequest(`limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text)}`);
}

function historyQuery(query: URLSearchParams): AttemptQuery | ServiceError {
  const outcome = query.get('outcome') ?? undefined;
  if (outcome !== undefined && outcome !== 'sent' && outcome !== 'failed') return badRequest(`outcome must be "sent" or "failed", got ${JSON.stringify(outcome)}`);
  const text = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' ? undefined : value;
  };
  return {
    receiver: text('receiver'),
    groupKey: text('group'),
    integration: text('integration'),
    outcome,
    since: unwrap(timeParam(query, 'since')),
    until: unwrap(timeParam(query, 'until')),
    limit: unwrap(limitParam(query)),
  };
}

function attemptJson(attempt: NotificationAttempt): Record<string, unknown> {
  return {
    time: formatTime(attempt.at),
    receiver: attempt.receiver,
    integration: attempt.integration,
    groupKey: attempt.groupKey,
    groupLabels: attempt.groupLabels,
    firing: attempt.firing,
    resolved: attempt.resolved,
    reason: attempt.reason,
    attempt: attempt.attempt,
    outcome: attempt.outcome,
    ...(attempt.failure === undefined ? {} : { failureReason: attempt.failure.reason, error: attempt.failure.error, willRetry: attempt.failure.willRetry }),
    durationSeconds: attempt.durationMs / 1000,
  };
}

/**
 * An extension of the Alertmanager API: `GET /api/v2/x/notifications`, every attempt to send a
 * notification (what, to whom, when, and how it went), newest first, filtered by `receiver`,
 * `group` (the group key), `integration` (`webhook[0]`), `outcome` (`sent` or `failed`) and a
 * time range (`since`, `until`), at most `limit` of them.
 */
export function historyRoutes(parts: HistoryParts): ApiRoute[] {
  const route = operationRoutes(parts);
  return [route('GET', '/api/v2/x/notifications', getNotifications)];
}

function getNotifications(parts: HistoryParts, request: ApiRequest): ApiOutcome {
  const query = unwrap(historyQuery(request.query));
  return jsonResponse(200, parts.history(query).map(attemptJson));
}
