import type { WebhookConfig } from '../../config/model.js';
import type { Alert } from '../../model.js';
import type { TemplateAlert } from '../../templates/data.js';
import { templateData } from '../../templates/build-data.js';
import { readSecretFile } from '../config-files.js';
import { goEncoderText, goMapJson, goTimeJson } from '../go-json.js';
import { resultOfAnswer, resultOfError, type HttpSender } from '../http-sender.js';
import type { Integration, NotifyRequest, NotifyResult } from '../integration.js';

function alertJson(alert: TemplateAlert): string {
  return `{"status":${JSON.stringify(alert.status)},"labels":${goMapJson(alert.labels)},"annotations":${goMapJson(alert.annotations)},"startsAt":${goTimeJson(alert.startsAt)},"endsAt":${goTimeJson(alert.endsAt)},"generatorURL":${JSON.stringify(alert.generatorURL)},"fingerprint":${JSON.stringify(alert.fingerprint)}}`;
}

/**
 * The webhook's body, payload version 4 (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config):
 * template.Data's fields, then `version`, `groupKey` and `truncatedAlerts`, written as Go's
 * json.Encoder writes them (map keys sorted, HTML characters escaped, a trailing newline).
 */
export function webhookPayload(request: NotifyRequest, alerts: readonly Alert[], truncatedAlerts: number): string {
  const data = templateData({ receiver: request.receiver, groupLabels: request.groupLabels, alerts, externalUrl: request.externalUrl, now: request.now });
  const json =
    `{"receiver":${JSON.stringify(data.receiver)},"status":${JSON.stringify(data.status)},"alerts":[${data.alerts.map(alertJson).join(',')}],` +
    `"groupLabels":${goMapJson(data.groupLabels)},"commonLabels":${goMapJson(data.commonLabels)},"commonAnnotations":${goMapJson(data.commonAnnotations)},` +
    `"externalURL":${JSON.stringify(data.externalURL)},"version":"4","groupKey":${JSON.stringify(request.groupKey)},"truncatedAlerts":${truncatedAlerts}}`;
  return goEncoderText(json);
}

/** One `webhook_configs` entry: POSTs the group as JSON to `url` (or the URL in `url_file`, read at each send). */
export class WebhookIntegration implements Integration {
  readonly kind = 'webhook';
  readonly sendResolved: boolean;

  constructor(
    private readonly config: WebhookConfig,
    readonly index: number,
    private readonly sender: HttpSender,
    /** The configuration file's directory: a relative `url_file` is read from there. */
    private readonly baseDir: string,
  ) {
    this.sendResolved = config.sendResolved;
  }

  async notify(request: NotifyRequest): Promise<NotifyResult> {
    const { maxAlerts } = this.config;
    const kept = maxAlerts > 0 && request.alerts.length > maxAlerts ? request.alerts.slice(0, maxAlerts) : request.alerts;
    const body = webhookPayload(request, kept, request.alerts.length - kept.length);
    try {
      const url = await this.url();
      const answer = await this.sender.post({ url, body, headers: { 'Content-Type': 'application/json' }, signal: request.signal, timeoutMs: this.config.timeoutMs });
      return resultOfAnswer(answer);
    } catch (error) {
      return resultOfError(error, request.signal);
    }
  }

  private async url(): Promise<string> {
    if (this.config.urlFile === '') return this.config.url;
    const read = await readSecretFile(this.baseDir, this.config.urlFile);
    if (!read.ok) throw new Error(read.error);
    return read.value;
  }
}
