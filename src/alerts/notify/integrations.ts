import type { HttpConfig } from '../config/http-config.js';
import type { AlertmanagerConfig } from '../config/model.js';
import { createHttpSender } from './http-client.js';
import type { Integration } from './integration.js';
import { otherIntegrations } from './receivers/index.js';
import { WebhookIntegration } from './receivers/webhook.js';

/**
 * Every receiver's integrations for one configuration, by receiver name: made once per load, so
 * HTTP connections are kept between sends and files named by the configuration are resolved
 * against `baseDir` (the configuration file's directory).
 */
export function buildIntegrations(config: AlertmanagerConfig, baseDir: string): Map<string, Integration[]> {
  const senders = new Map<HttpConfig, ReturnType<typeof createHttpSender>>();
  const sender = (httpConfig: HttpConfig) => {
    let found = senders.get(httpConfig);
    if (found === undefined) senders.set(httpConfig, (found = createHttpSender(httpConfig, baseDir)));
    return found;
  };
  const byReceiver = new Map<string, Integration[]>();
  for (const receiver of config.receivers) {
    byReceiver.set(receiver.name, [
      ...receiver.webhookConfigs.map((webhook, index) => new WebhookIntegration(webhook, index, sender(webhook.httpConfig), baseDir)),
      ...otherIntegrations(receiver, { templates: config.templates, sender, baseDir }),
    ]);
  }
  return byReceiver;
}
