/**
 * The integrations of a receiver besides its webhooks: email, Slack, PagerDuty and Microsoft
 * Teams, built once per configuration load, and the integrations this service does not send.
 */
import type { AlertmanagerConfig, HttpConfig, Receiver } from '../../config/index.js';
import type { Templates } from '../../templates/templates.js';
import type { HttpSender } from '../http-sender.js';
import type { Integration } from '../integration.js';
import { EmailIntegration } from './email.js';
import { MsTeamsIntegration } from './msteams.js';
import { PagerdutyIntegration } from './pagerduty.js';
import { SlackIntegration } from './slack.js';

export { EmailIntegration } from './email.js';
export { MsTeamsIntegration } from './msteams.js';
export { PagerdutyIntegration, PAGERDUTY_V1_URL } from './pagerduty.js';
export { SlackIntegration } from './slack.js';

export interface IntegrationTools {
  templates: Templates;
  /** The sender of one `http_config`; called once per HTTP integration. */
  sender(httpConfig: HttpConfig): HttpSender;
  /** The configuration file's directory, where relative `*_file` paths are read; default the working directory. */
  baseDir?: string;
}

/** The receiver's email, Slack, PagerDuty and Teams integrations, each kind indexed from 0 in configuration order. */
export function otherIntegrations(receiver: Receiver, tools: IntegrationTools): Integration[] {
  const { templates, sender } = tools;
  const baseDir = tools.baseDir ?? process.cwd();
  return [
    ...receiver.emailConfigs.map((c, i) => new EmailIntegration(i, c, templates, baseDir)),
    ...receiver.slackConfigs.map((c, i) => new SlackIntegration(i, c, templates, sender(c.httpConfig), baseDir)),
    ...receiver.pagerdutyConfigs.map((c, i) => new PagerdutyIntegration(i, c, templates, sender(c.httpConfig), baseDir)),
    ...receiver.msteamsConfigs.map((c, i) => new MsTeamsIntegration(i, c, templates, sender(c.httpConfig), baseDir)),
  ];
}

export const SUPPORTED_INTEGRATIONS = ['webhook', 'email', 'slack', 'pagerduty', 'msteams'] as const;

/** One line per receiver and integration list that this service accepts in its configuration but does not send. */
export function unsupportedIntegrations(config: Pick<AlertmanagerConfig, 'receivers'>): string[] {
  return config.receivers.flatMap((receiver) =>
    receiver.unsupportedConfigs.map(
      ([key, count]) =>
        `receiver ${JSON.stringify(receiver.name)} has ${count} ${key} ${count === 1 ? 'entry' : 'entries'}, which this service does not send (supported: ${SUPPORTED_INTEGRATIONS.join(', ')})`,
    ),
  );
}
