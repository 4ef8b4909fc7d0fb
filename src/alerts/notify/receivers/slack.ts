import type { SlackConfig } from '../../config/index.js';
import { templateData } from '../../templates/build-data.js';
import type { Templates } from '../../templates/templates.js';
import type { HttpAnswer, HttpSender } from '../http-sender.js';
import type { Integration, NotifyRequest, NotifyResult } from '../integration.js';
import { inlineOrFile, isAnswer, permanentFailure, postJson, resultOfIntegrationAnswer } from './http-post.js';
import { FieldRenderer, truncateWithEllipsis } from './template-fields.js';

/** Slack's limit on an attachment title (https://api.slack.com/reference/messaging/attachments#legacy_fields). */
const MAX_TITLE_CHARS = 1024;

/**
 * A `slack_configs` entry: one message with one attachment, POSTed to the incoming webhook or
 * `chat.postMessage` URL, built as Alertmanager's notify/slack builds it (field names, the
 * fields left out when empty, `mrkdwn_in`'s default).
 */
export class SlackIntegration implements Integration {
  readonly kind = 'slack';
  readonly sendResolved: boolean;

  constructor(
    readonly index: number,
    private readonly config: SlackConfig,
    private readonly templates: Templates,
    private readonly sender: HttpSender,
    /** The configuration file's directory: a relative `api_url_file` is read from there. */
    private readonly baseDir: string,
  ) {
    this.sendResolved = config.sendResolved;
  }

  /** The request body, or the first template failure. */
  payload(request: NotifyRequest): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
    const c = this.config;
    const render = new FieldRenderer(this.templates, templateData(request));
    const attachment: Record<string, unknown> = {};
    const optional = (key: string, value: string): void => {
      if (value !== '') attachment[key] = value;
    };
    optional('title', truncateWithEllipsis(render.text(c.title), MAX_TITLE_CHARS));
    optional('title_link', render.text(c.titleLink));
    optional('pretext', render.text(c.pretext));
    attachment['text'] = render.text(c.text);
    attachment['fallback'] = render.text(c.fallback);
    attachment['callback_id'] = render.text(c.callbackId);
    if (c.fields.length > 0) {
      attachment['fields'] = c.fields.map((field) => ({ title: render.text(field.title), value: render.text(field.value), short: field.short ?? c.shortFields }));
    }
    if (c.actions.length > 0) attachment['actions'] = c.actions.map((action) => renderAction(render, action));
    optional('image_url', render.text(c.imageUrl));
    optional('thumb_url', render.text(c.thumbUrl));
    attachment['footer'] = render.text(c.footer);
    optional('color', render.text(c.color));
    attachment['mrkdwn_in'] = c.mrkdwnIn.length > 0 ? c.mrkdwnIn : ['fallback', 'pretext', 'text'];

    const body: Record<string, unknown> = {};
    const top = (key: string, value: string): void => {
      if (value !== '') body[key] = value;
    };
    top('channel', render.text(c.channel));
    top('username', render.text(c.username));
    top('icon_emoji', render.text(c.iconEmoji));
    top('icon_url', render.text(c.iconUrl));
    if (c.linkNames) body['link_names'] = true;
    body['attachments'] = [attachment];
    if (render.error !== undefined) return { ok: false, error: render.error };
    return { ok: true, value: body };
  }

  async notify(request: NotifyRequest): Promise<NotifyResult> {
    const payload = this.payload(request);
    if (!payload.ok) return permanentFailure(payload.error);
    const url = await inlineOrFile(this.baseDir, this.config.apiUrl, this.config.apiUrlFile);
    if (!url.ok) return permanentFailure(url.error);
    const outcome = await postJson(this.sender, url.value, payload.value, request, this.config.timeoutMs);
    if (!isAnswer(outcome)) return outcome;
    const result = slackVerdict(outcome);
    const channel = JSON.stringify(payload.value['channel'] ?? '');
    return result.ok ? result : { ...result, error: `channel ${channel}: ${result.error}` };
  }
}

function renderAction(render: FieldRenderer, action: SlackConfig['actions'][number]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const optional = (target: Record<string, unknown>, key: string, value: string): void => {
    if (value !== '') target[key] = value;
  };
  optional(out, 'type', render.text(action.type));
  optional(out, 'text', render.text(action.text));
  optional(out, 'url', render.text(action.url));
  optional(out, 'style', render.text(action.style));
  optional(out, 'name', render.text(action.name));
  optional(out, 'value', render.text(action.value));
  if (action.confirm !== undefined) {
    const confirm: Record<string, unknown> = {};
    optional(confirm, 'text', render.text(action.confirm.text));
    optional(confirm, 'title', render.text(action.confirm.title));
    optional(confirm, 'ok_text', render.text(action.confirm.okText));
    optional(confirm, 'dismiss_text', render.text(action.confirm.dismissText));
    out['confirm'] = confirm;
  }
  return out;
}

/**
 * Slack's answer: the status as for any HTTP receiver; and, as newer Alertmanagers check, a
 * Web API answer of 200 with `{"ok":false,"error":…}` is a failure no retry mends.
 */
function slackVerdict(answer: HttpAnswer): NotifyResult {
  const verdict = resultOfIntegrationAnswer(answer, {});
  if (!verdict.ok || !answer.body.startsWith('{')) return verdict;
  try {
    const parsed = JSON.parse(answer.body) as { ok?: unknown; error?: unknown };
    if (parsed.ok === false) return { ok: false, retry: false, reason: 'clientError', error: `error response from Slack: ${String(parsed.error ?? '')}` };
  } catch {
    // Not JSON after all: the status said it was taken.
  }
  return verdict;
}
