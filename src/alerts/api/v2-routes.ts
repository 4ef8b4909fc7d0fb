import { ServiceError, unwrap } from '../../errors/index.js';
import { operationRoutes, type ApiOutcome, type ApiRequest, type ApiRoute } from '../../transports/http/handoff/index.js';
import type { AlertQuery, AlertsService } from '../alerts-service.js';
import type { Matcher } from '../matchers/matcher.js';
import type { SilenceState } from '../model.js';
import { readJsonBody } from './json-body.js';
import { decodePostableAlerts } from './postable-alerts.js';
import { decodePostableSilence } from './postable-silence.js';
import { boolParam, matcherParams, receiverParam } from './query.js';
import { Slicer } from '../slicer.js';
import { emptyResponse, jsonListResponse, jsonResponse } from './responses.js';
import type { StatusSource } from './status.js';
import { receiversJson, statusJson } from './status.js';
import { alertText, groupText, ReceiversText, silenceJson } from './views.js';

export interface V2Parts {
  service: AlertsService;
  status: StatusSource;
  /** ALERTMANAGER_MAX_ALERTS_PER_REQUEST */
  maxAlertsPerRequest: number;
  /** ALERTMANAGER_MAX_SILENCE_MATCHER_BYTES (0: no bound) */
  maxSilenceMatcherBytes: number;
  /** ALERTMANAGER_MAX_ALERTS, for the message of a POST that did not fit. */
  maxAlerts: number;
  /** Told how many new alerts a POST could not store because ALERTMANAGER_MAX_ALERTS were held. */
  alertsRefused(count: number): void;
  now(): number;
}

const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/** A handler error as Alertmanager's handlers send it: a JSON string, 400. */
function badRequest(message: string): ServiceError {
  return new ServiceError('AM_BAD_REQUEST', message);
}

/** The body problems go-openapi answers before a handler runs. */
function bodyOf(request: ApiRequest, name: string): unknown {
  const read = readJsonBody(request);
  if (read.ok) return read.value;
  const problem = read.problem;
  if (problem.kind === 'media type') {
    return new ServiceError('AM_UNSUPPORTED_MEDIA_TYPE', `unsupported media type ${JSON.stringify(problem.mediaType)}, only [application/json] are allowed`);
  }
  if (problem.kind === 'missing') return new ServiceError('AM_REQUIRED', `${name} in body is required`);
  return new ServiceError('AM_PARSE_ERROR', `parsing ${name} body from "" failed, because ${problem.reason}`);
}

/** The filters GET /alerts and /alerts/groups share, or the 400 of the first bad one. */
function alertQuery(query: URLSearchParams): AlertQuery | ServiceError {
  const filter = matcherParams(query, 'filter');
  if (typeof filter === 'string') return badRequest(filter);
  const receiver = receiverParam(query);
  if (typeof receiver === 'string') return badRequest(receiver);
  const receiverMatchers = matcherParams(query, 'receiver_matchers');
  if (typeof receiverMatchers === 'string') return badRequest(`failed to parse receiver_matchers param: ${receiverMatchers}`);
  return {
    active: boolParam(query, 'active'),
    silenced: boolParam(query, 'silenced'),
    inhibited: boolParam(query, 'inhibited'),
    muted: boolParam(query, 'muted'),
    filter,
    receiver: combineReceiverFilters(receiver, receiverMatchers),
  };
}

/** `receiver` (a regex) and `receiver_matchers` (against the receiver's labels, here its `name`) together. */
function combineReceiverFilters(regex: ((name: string) => boolean) | undefined, matchers: readonly Matcher[]): ((name: string) => boolean) | undefined {
  if (regex === undefined && matchers.length === 0) return undefined;
  return (name) => (regex === undefined || regex(name)) && matchers.every((m) => m.matches({ name }));
}

function silenceStates(query: URLSearchParams): Set<SilenceState> {
  const states = new Set<SilenceState>();
  if (boolParam(query, 'active')) states.add('active');
  if (boolParam(query, 'pending')) states.add('pending');
  if (boolParam(query, 'expired')) states.add('expired');
  return states;
}

function silenceId(request: ApiRequest): string | ServiceError {
  const id = request.params['silenceID'] ?? '';
  return UUID.test(id) ? id.toLowerCase() : new ServiceError('AM_INVALID_TYPE', `silenceID in path must be of type uuid: ${JSON.stringify(id)}`);
}

/** The Alertmanager API v2 operations of the v0.34 spec, each named by its operation id. */
export function v2Routes(parts: V2Parts): ApiRoute[] {
  const route = operationRoutes(parts);
  return [
    route('GET', '/api/v2/status', getStatus),
    route('GET', '/api/v2/receivers', getReceivers),
    route('GET', '/api/v2/alerts', getAlerts),
    route('POST', '/api/v2/alerts', postAlerts),
    route('GET', '/api/v2/alerts/groups', getAlertGroups),
    route('GET', '/api/v2/silences', getSilences),
    route('POST', '/api/v2/silences', postSilences),
    route('GET', '/api/v2/silence/:silenceID', getSilence),
    route('DELETE', '/api/v2/silence/:silenceID', deleteSilence),
  ];
}

function getStatus({ service, status }: V2Parts): ApiOutcome {
  return jsonResponse(200, statusJson(status, service.configuration));
}

function getReceivers({ service }: V2Parts, request: ApiRequest): ApiOutcome {
  const matchers = matcherParams(request.query, 'receiver_matchers');
  if (typeof matchers === 'string') return badRequest(`failed to parse receiver_matchers param: ${matchers}`);
  return jsonResponse(200, receiversJson(service.configuration, matchers));
}

async function getAlerts({ service, now }: V2Parts, request: ApiRequest): Promise<ApiOutcome> {
  const query = unwrap(alertQuery(request.query));
  const slicer = new Slicer();
  const receivers = new ReceiversText();
  return jsonListResponse(await service.listAlerts(query, now(), slicer), (view) => alertText(view, receivers), slicer);
}

async function postAlerts({ service, maxAlertsPerRequest, maxAlerts, alertsRefused, now }: V2Parts, request: ApiRequest): Promise<ApiOutcome> {
  const body = unwrap(bodyOf(request, 'alerts'));
  const alerts = unwrap(decodePostableAlerts(body, maxAlertsPerRequest));
  const { errors, refused } = await service.postAlerts(alerts, now());
  if (refused > 0) {
    alertsRefused(refused);
    // A 5xx, so that senders try again; the alerts already held (resolves among them) were taken.
    const full = `alerts not stored: ${refused} new alerts would pass ALERTMANAGER_MAX_ALERTS (${maxAlerts})`;
    return new ServiceError('AM_ALERTS_FULL', [full, ...errors].join('\n'));
  }
  // The valid alerts of the request are stored even when others fail (Alertmanager >= 0.32 joins with newlines).
  return errors.length > 0 ? badRequest(errors.join('\n')) : emptyResponse(200);
}

async function getAlertGroups({ service, now }: V2Parts, request: ApiRequest): Promise<ApiOutcome> {
  const query = unwrap(alertQuery(request.query));
  const slicer = new Slicer();
  const receivers = new ReceiversText();
  return jsonListResponse(await service.listGroups(query, now(), slicer), (group) => groupText(group, receivers), slicer);
}

function getSilences({ service, now }: V2Parts, request: ApiRequest): ApiOutcome {
  const filter = matcherParams(request.query, 'filter');
  if (typeof filter === 'string') return badRequest(filter);
  const at = now();
  return jsonResponse(200, service.listSilences(filter, silenceStates(request.query), at).map((s) => silenceJson(s, at)));
}

async function postSilences({ service, maxSilenceMatcherBytes, now }: V2Parts, request: ApiRequest): Promise<ApiOutcome> {
  const body = unwrap(bodyOf(request, 'silence'));
  const at = now();
  const silence = unwrap(decodePostableSilence(body, at, maxSilenceMatcherBytes));
  const change = await service.setSilence(silence, at);
  if (change.ok) return jsonResponse(200, { silenceID: change.silence.id });
  if (change.reason === 'not found') return new ServiceError('AM_SILENCE_NOT_FOUND', 'silence not found');
  return badRequest(`invalid silence: ${change.message}`);
}

function getSilence({ service, now }: V2Parts, request: ApiRequest): ApiOutcome {
  const silence = service.getSilence(unwrap(silenceId(request)));
  return silence === undefined ? emptyResponse(404) : jsonResponse(200, silenceJson(silence, now()));
}

async function deleteSilence({ service, now }: V2Parts, request: ApiRequest): Promise<ApiOutcome> {
  const id = unwrap(silenceId(request));
  return emptyResponse((await service.expireSilence(id, now())) === 'missing' ? 404 : 200);
}
