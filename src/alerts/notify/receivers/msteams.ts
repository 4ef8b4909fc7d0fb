import type { MsTeamsConfig } from '../../config/index.js';
import { templateData } from '../../templates/build-data.js';
import type { Templates } from '../../templates/templates.js';
import type { HttpSender } from '../http-sender.js';
import type { Integration, NotifyRequest, NotifyResult } from '../integration.js';
import { inlineOrFile, isAnswer, permanentFailure, postJson, resultOfIntegrationAnswer } from './http-post.js';
import { FieldRenderer } from './template-fields.js';

/** Alertmanager's card colours: red while any alert fires, green once all are resolved. */
const FIRING_COLOR = '8C1A1A';
const RESOLVED_COLOR = '2DC72D';

/**
 * An `msteams_configs` entry: the legacy MessageCard
 * (https://learn.microsoft.com/en-us/outlook/actionable-messages/message-card-reference) that
 * Alertmanager 0.26 and later POST to a Teams incoming webhook.
 */
export class MsTeamsIntegration implements Integration {
  readonly kind = 'msteams';
  readonly sendResolved: boolean;

  constructor(
    readonly index: number,
    private readonly config: MsTeamsConfig,
    private readonly templates: Templates,
    private readonly sender: HttpSender,
    /** The configuration file's directory: a relative `webhook_url_file` is read from there. */
    private readonly baseDir: string,
  ) {
    this.sendResolved = config.sendResolved;
  }

  card(request: NotifyRequest): { ok: true; value: Record<string, string> } | { ok: false; error: string } {
    const data = templateData(request);
    const render = new FieldRenderer(this.templates, data);
    const card = {
      '@context': 'http://schema.org/extensions',
      type: 'MessageCard',
      title: render.text(this.config.title),
      summary: render.text(this.config.summary),
      text: render.text(this.config.text),
      themeColor: data.status === 'firing' ? FIRING_COLOR : RESOLVED_COLOR,
    };
    return render.error === undefined ? { ok: true, value: card } : { ok: false, error: render.error };
  }

  async notify(request: NotifyRequest): Promise<NotifyResult> {
    const card = this.card(request);
    if (!card.ok) return permanentFailure(card.error);
    const url = await inlineOrFile(this.baseDir, this.config.webhookUrl, this.config.webhookUrlFile);
    if (!url.ok) return permanentFailure(`read webhook_url_file: ${url.error}`);
    const outcome = await postJson(this.sender, url.value, card.value, request, this.config.timeoutMs);
    return isAnswer(outcome) ? resultOfIntegrationAnswer(outcome, {}) : outcome;
  }
}
