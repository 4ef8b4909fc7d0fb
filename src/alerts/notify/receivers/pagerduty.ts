import type { PagerdutyConfig } from '../../config/index.js';
import { templateData } from '../../templates/build-data.js';
import type { TemplateData } from '../../templates/data.js';
import type { Templates } from '../../templates/templates.js';
import type { HttpAnswer, HttpSender } from '../http-sender.js';
import type { Integration, NotifyRequest, NotifyResult } from '../integration.js';
import { goJson, inlineOrFile, isAnswer, permanentFailure, postJson, resultOfIntegrationAnswer, type AnswerRules } from './http-post.js';
import { FieldRenderer, groupKeyHash, truncate } from './template-fields.js';

/** The Events API v1 endpoint Alertmanager posts `service_key` events to (not configurable there either). */
export const PAGERDUTY_V1_URL = 'https://events.pagerduty.com/generic/2010-04-15/create_event.json';

/** PagerDuty refuses larger events; Alertmanager then sends the event without its details. */
export const MAX_PAGERDUTY_EVENT_BYTES = 512_000;
const DETAILS_REMOVED = 'Custom details have been removed because the original event exceeds the maximum size of 512KB';

/** PagerDuty's rate limiting: 429 on the Events API v2, 403 on v1; both retried, as 5xx. */
const V2_RULES: AnswerRules = { retryCodes: [429], details: errorDetails };
const V1_RULES: AnswerRules = { retryCodes: [403], details: errorDetails };

/** A 400's `{"message","errors"}` as Alertmanager reports it; nothing for other answers. */
function errorDetails(answer: HttpAnswer): string {
  if (answer.status !== 400) return '';
  try {
    const parsed = JSON.parse(answer.body) as { message?: unknown; errors?: unknown };
    const errors = Array.isArray(parsed.errors) ? parsed.errors.map(String).join(',') : '';
    return `${typeof parsed.message === 'string' ? parsed.message : ''}: ${errors}`;
  } catch {
    return '';
  }
}

type Built = { ok: true; url: string; message: Record<string, unknown>; rules: AnswerRules } | { ok: false; error: string };

/**
 * A `pagerduty_configs` entry: an Events API v2 event (`routing_key`) or a v1 one
 * (`service_key`), triggered while any alert of the group fires and resolved when none does,
 * deduplicated by the SHA-256 of the group key, as Alertmanager's notify/pagerduty sends them.
 */
export class PagerdutyIntegration implements Integration {
  readonly kind = 'pagerduty';
  readonly sendResolved: boolean;

  constructor(
    readonly index: number,
    private readonly config: PagerdutyConfig,
    private readonly templates: Templates,
    private readonly sender: HttpSender,
    /** The configuration file's directory: a relative `routing_key_file` is read from there. */
    private readonly baseDir: string,
    private readonly v1Url = PAGERDUTY_V1_URL,
  ) {
    this.sendResolved = config.sendResolved;
  }

  private get isV1(): boolean {
    return this.config.serviceKey !== '' || this.config.serviceKeyFile !== '';
  }

  /** The event and where it goes, or why it cannot be built. */
  async event(request: NotifyRequest): Promise<Built> {
    const data = templateData(request);
    const eventType = data.status === 'resolved' ? 'resolve' : 'trigger';
    const details: Record<string, string> = {};
    for (const [name, template] of this.config.details) {
      const rendered = this.templates.text(template, data);
      if (!rendered.ok) return { ok: false, error: `${JSON.stringify(name)}: failed to template ${JSON.stringify(template)}: ${rendered.error}` };
      details[name] = rendered.value;
    }
    return this.isV1 ? this.v1Event(request, data, eventType, details) : this.v2Event(request, data, eventType, details);
  }

  private async v2Event(request: NotifyRequest, data: TemplateData, eventType: string, details: Record<string, string>): Promise<Built> {
    const c = this.config;
    const key = await inlineOrFile(this.baseDir, c.routingKey, c.routingKeyFile);
    if (!key.ok) return key;
    const render = new FieldRenderer(this.templates, data);
    const message: Record<string, unknown> = {
      routing_key: render.text(key.value),
      dedup_key: groupKeyHash(request.groupKey),
      event_action: eventType,
      payload: {
        summary: truncate(render.text(c.description), 1024),
        source: render.text(c.source),
        severity: render.text(c.severity === '' ? 'error' : c.severity),
        class: render.text(c.class),
        component: render.text(c.component),
        group: render.text(c.group),
        custom_details: details,
      },
      client: render.text(c.client),
      client_url: render.text(c.clientUrl),
      images: c.images.map((image) => ({ src: render.text(image.src), alt: render.text(image.alt), href: render.text(image.href) })).filter((image) => image.src !== ''),
      links: c.links.map((link) => ({ href: render.text(link.href), text: render.text(link.text) })).filter((link) => link.href !== ''),
    };
    if (render.error !== undefined) return { ok: false, error: `failed to template PagerDuty v2 message: ${render.error}` };
    if (message['routing_key'] === '') return { ok: false, error: 'routing key cannot be empty' };
    return { ok: true, url: c.url, message: withoutEmpty(message, ['class', 'component', 'group']), rules: V2_RULES };
  }

  private async v1Event(request: NotifyRequest, data: TemplateData, eventType: string, details: Record<string, string>): Promise<Built> {
    const c = this.config;
    const key = await inlineOrFile(this.baseDir, c.serviceKey, c.serviceKeyFile);
    if (!key.ok) return key;
    const render = new FieldRenderer(this.templates, data);
    const message: Record<string, unknown> = {
      service_key: render.text(key.value),
      incident_key: groupKeyHash(request.groupKey),
      event_type: eventType,
      description: truncate(render.text(c.description), 1024),
      // Go's struct has no omitempty on these two, so a v1 event carries them empty.
      event_action: '',
      payload: null,
      client: eventType === 'trigger' ? render.text(c.client) : '',
      client_url: eventType === 'trigger' ? render.text(c.clientUrl) : '',
      details,
    };
    if (render.error !== undefined) return { ok: false, error: `failed to template PagerDuty v1 message: ${render.error}` };
    if (message['service_key'] === '') return { ok: false, error: 'service key cannot be empty' };
    return { ok: true, url: this.v1Url, message: withoutEmpty(message, []), rules: V1_RULES };
  }

  async notify(request: NotifyRequest): Promise<NotifyResult> {
    const event = await this.event(request);
    if (!event.ok) return permanentFailure(event.error);
    const outcome = await postJson(this.sender, event.url, withinSizeLimit(event.message), request, this.config.timeoutMs);
    if (!isAnswer(outcome)) return outcome.ok ? outcome : { ...outcome, error: `failed to post message to PagerDuty${this.isV1 ? ' v1' : ''}: ${outcome.error}` };
    return resultOfIntegrationAnswer(outcome, event.rules);
  }
}

/** Go's `omitempty`: top-level fields (and these payload fields) left out when '' or an empty list. */
function withoutEmpty(message: Record<string, unknown>, payloadFields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === 'event_action' || key === 'payload') out[key] = value;
    else if (value !== '' && !(Array.isArray(value) && value.length === 0)) out[key] = value;
  }
  const payload = out['payload'];
  if (payload !== null && typeof payload === 'object') {
    const fields = payload as Record<string, unknown>;
    for (const field of payloadFields) if (fields[field] === '') delete fields[field];
  }
  return out;
}

/** An event past PagerDuty's size limit goes without its details, as Alertmanager sends it. */
function withinSizeLimit(message: Record<string, unknown>): Record<string, unknown> {
  if (Buffer.byteLength(goJson(message)) <= MAX_PAGERDUTY_EVENT_BYTES) return message;
  const payload = message['payload'];
  if (payload !== null && typeof payload === 'object') return { ...message, payload: { ...payload, custom_details: { error: DETAILS_REMOVED } } };
  return { ...message, details: { error: DETAILS_REMOVED } };
}
