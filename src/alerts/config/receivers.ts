import type { YamlMap, YamlNode } from '../../yaml/index.js';
import { goQuote } from '../matchers/index.js';
import type { Decoder } from './decode-context.js';
import { isNull } from './decode-context.js';
import { goDuration } from './go-duration.js';
import { globalValue, type GlobalConfig } from './global.js';
import { buildEmailConfig, decodeEmailConfig, type EmailSpec } from './email-config.js';
import { decodeHttpConfig, httpConfigOut, type HttpConfig } from './http-config.js';
import type { Receiver, WebhookConfig } from './model.js';
import { buildMsTeamsConfig, decodeMsTeamsConfig, type MsTeamsSpec } from './msteams-config.js';
import { buildPagerdutyConfig, decodePagerdutyConfig, type PagerdutySpec } from './pagerduty-config.js';
import { buildSlackConfig, decodeSlackConfig, type SlackSpec } from './slack-config.js';
import { maskedPassThrough, SECRET } from './pass-through.js';
import { checkUrl } from './url.js';
import { lit, map, seq, str, type YamlOut } from './yaml-emit.js';

/**
 * Receivers. Webhooks are what this service sends and are modelled; every other integration
 * is accepted (its list and entries must be mappings), checked where Alertmanager's own
 * checks fall back to `global`, and printed back as written with its secrets masked.
 */
interface IntegrationKind {
  key: string;
  goType: string;
  /** Known to Alertmanager 0.25: printed in `config.original` (in this order). */
  in025: boolean;
  /** Settings printed as `<secret>`. */
  secrets: ReadonlySet<string>;
}

const INTEGRATIONS: readonly IntegrationKind[] = [
  { key: 'discord_configs', goType: '[]*config.DiscordConfig', in025: true, secrets: new Set(['webhook_url']) },
  { key: 'email_configs', goType: '[]*config.EmailConfig', in025: true, secrets: new Set(['auth_password', 'auth_secret']) },
  { key: 'incidentio_configs', goType: '[]*config.IncidentioConfig', in025: false, secrets: new Set(['url', 'alert_source_token']) },
  { key: 'pagerduty_configs', goType: '[]*config.PagerdutyConfig', in025: true, secrets: new Set(['service_key', 'routing_key']) },
  { key: 'slack_configs', goType: '[]*config.SlackConfig', in025: true, secrets: new Set(['api_url', 'app_token']) },
  { key: 'webhook_configs', goType: '[]*config.WebhookConfig', in025: true, secrets: new Set() },
  { key: 'opsgenie_configs', goType: '[]*config.OpsGenieConfig', in025: true, secrets: new Set(['api_key']) },
  { key: 'wechat_configs', goType: '[]*config.WechatConfig', in025: true, secrets: new Set(['api_secret']) },
  { key: 'pushover_configs', goType: '[]*config.PushoverConfig', in025: true, secrets: new Set(['user_key', 'token']) },
  { key: 'victorops_configs', goType: '[]*config.VictorOpsConfig', in025: true, secrets: new Set(['api_key']) },
  { key: 'sns_configs', goType: '[]*config.SNSConfig', in025: true, secrets: new Set(['secret_key']) },
  { key: 'telegram_configs', goType: '[]*config.TelegramConfig', in025: true, secrets: new Set(['bot_token']) },
  { key: 'webex_configs', goType: '[]*config.WebexConfig', in025: true, secrets: new Set() },
  { key: 'msteams_configs', goType: '[]*config.MSTeamsConfig', in025: false, secrets: new Set(['webhook_url']) },
  { key: 'msteamsv2_configs', goType: '[]*config.MSTeamsV2Config', in025: false, secrets: new Set(['webhook_url']) },
  { key: 'jira_configs', goType: '[]*config.JiraConfig', in025: false, secrets: new Set() },
  { key: 'rocketchat_configs', goType: '[]*config.RocketchatConfig', in025: false, secrets: new Set(['token', 'token_id']) },
  { key: 'mattermost_configs', goType: '[]*config.MattermostConfig', in025: false, secrets: new Set(['webhook_url']) },
];

/** Secrets an integration's `http_config` may hold (basic auth, authorization, OAuth 2, bearer token). */
const HTTP_CONFIG_SECRETS = ['password', 'credentials', 'client_secret', 'bearer_token'];

export interface WebhookSpec {
  sendResolved: boolean;
  /** Undefined: inherits `global.http_config`. */
  httpConfig: HttpConfig | undefined;
  url: string;
  urlFile: string;
  maxAlerts: number;
  timeoutMs: number;
}

export interface ReceiverSpec {
  name: string;
  webhooks: WebhookSpec[];
  /** The other integrations' entries, by list key, as written (for `config.original`). */
  others: Map<string, YamlMap[]>;
  /** The entries of the integrations this service sends besides webhooks, decoded. */
  emails: EmailSpec[];
  slacks: SlackSpec[];
  pagerduties: PagerdutySpec[];
  msteams: MsTeamsSpec[];
}

/** Decodes the entries of a modelled integration into `r` (yaml.v2 decodes them as it meets them). */
const MODELLED: Readonly<Record<string, (d: Decoder, r: ReceiverSpec, entries: readonly YamlMap[]) => void>> = {
  email_configs: (d, r, entries) => (r.emails = entries.map((e) => decodeEmailConfig(d, e))),
  slack_configs: (d, r, entries) => (r.slacks = entries.map((e) => decodeSlackConfig(d, e))),
  pagerduty_configs: (d, r, entries) => (r.pagerduties = entries.map((e) => decodePagerdutyConfig(d, e))),
  msteams_configs: (d, r, entries) => (r.msteams = entries.map((e) => decodeMsTeamsConfig(d, e))),
};

/** A webhook `url`: checked unless it is a template or the `<secret>` placeholder. */
function checkWebhookUrl(d: Decoder, url: string): void {
  if (url === '' || url === SECRET || url.includes('{{')) return;
  const problem = checkUrl(url);
  if (problem !== undefined) d.fail(problem);
}

function decodeWebhook(d: Decoder, node: YamlNode): WebhookSpec {
  const w: WebhookSpec = { sendResolved: true, httpConfig: undefined, url: '', urlFile: '', maxAlerts: 0, timeoutMs: 0 };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        send_resolved: (v) => (w.sendResolved = d.bool(v) ?? w.sendResolved),
        http_config: (v) => {
          if (!isNull(v)) w.httpConfig = decodeHttpConfig(d, v);
        },
        url: (v) => {
          w.url = d.string(v) ?? '';
          checkWebhookUrl(d, w.url);
        },
        url_file: (v) => (w.urlFile = d.string(v) ?? ''),
        max_alerts: (v) => (w.maxAlerts = d.uint(v) ?? 0),
        timeout: (v) => (w.timeoutMs = goDuration(d, v)),
        payload: () => undefined,
      });
      return w;
    },
    (webhook) => {
      if (webhook.url === '' && webhook.urlFile === '') d.fail('one of url or url_file must be configured');
      if (webhook.url !== '' && webhook.urlFile !== '') d.fail('at most one of url & url_file must be configured');
    },
  );
}

export function decodeReceiver(d: Decoder, node: YamlNode): ReceiverSpec {
  const r: ReceiverSpec = { name: '', webhooks: [], others: new Map(), emails: [], slacks: [], pagerduties: [], msteams: [] };
  let labels: Array<[string, string]> | undefined;
  const fields: Record<string, (v: YamlNode) => void> = {
    name: (v) => (r.name = d.string(v) ?? ''),
    labels: (v) => (labels = d.stringMap(v)),
  };
  for (const kind of INTEGRATIONS) {
    fields[kind.key] =
      kind.key === 'webhook_configs'
        ? (v) => {
            // A null entry would be a webhook without a URL; it is left out.
            const hooks = d.list(v, kind.goType, (item) => (isNull(item) ? undefined : decodeWebhook(d, item)));
            r.webhooks = (hooks ?? []).filter((w): w is WebhookSpec => w !== undefined);
          }
        : (v) => {
            const entries = d.list(v, kind.goType, (item) => {
              if (item.kind === 'map') return item;
              if (!isNull(item)) d.typeError(item, 'config.plain');
              return undefined;
            });
            const kept = (entries ?? []).filter((e): e is YamlMap => e !== undefined);
            r.others.set(kind.key, kept);
            MODELLED[kind.key]?.(d, r, kept);
          };
  }
  // Like yaml.v2, a null entry is the zero receiver, without its own checks.
  if (isNull(node)) return r;
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', fields);
      return r;
    },
    (receiver) => {
      if (receiver.name === '') d.fail('missing name in receiver');
      const nameLabel = labels?.find(([k]) => k === 'name');
      if (nameLabel !== undefined && nameLabel[1] !== receiver.name) {
        d.fail(`receiver label "name" must match receiver name ${goQuote(receiver.name)}, got ${goQuote(nameLabel[1])}`);
      }
    },
  );
}

/** Whether an integration entry sets `key` to something non-empty. */
function has(entry: YamlMap, key: string): boolean {
  return entry.entries.some((e) => e.key.kind === 'scalar' && e.key.text === key && !isNull(e.value) && !(e.value.kind === 'scalar' && e.value.text === ''));
}

/**
 * The checks Alertmanager makes per receiver once `global` is known (settings an integration
 * may leave to `global`), in its order.
 */
export function checkIntegrations(d: Decoder, r: ReceiverSpec, g: GlobalConfig): void {
  const entries = (key: string): YamlMap[] => r.others.get(key) ?? [];
  const fromGlobal = (key: string): boolean => globalValue(g, key) !== '';
  for (const e of entries('email_configs')) {
    if (!has(e, 'smarthost') && !fromGlobal('smtp_smarthost')) d.fail('no global SMTP smarthost set');
    if (!has(e, 'from') && !fromGlobal('smtp_from')) d.fail('no global SMTP from set');
  }
  for (const e of entries('slack_configs')) {
    if (!has(e, 'api_url') && !has(e, 'api_url_file') && !fromGlobal('slack_api_url') && !fromGlobal('slack_api_url_file')) {
      d.fail('no global Slack API URL set either inline or in a file');
    }
  }
  for (const e of entries('opsgenie_configs')) {
    if (!has(e, 'api_key') && !has(e, 'api_key_file') && !fromGlobal('opsgenie_api_key') && !fromGlobal('opsgenie_api_key_file')) {
      d.fail('no global OpsGenie API Key set either inline or in a file');
    }
  }
  for (const e of entries('wechat_configs')) {
    if (!has(e, 'api_secret') && !fromGlobal('wechat_api_secret')) d.fail('no global Wechat ApiSecret set');
    if (!has(e, 'corp_id') && !fromGlobal('wechat_api_corp_id')) d.fail('no global Wechat CorpID set');
  }
  for (const e of entries('victorops_configs')) {
    if (!has(e, 'api_key') && !has(e, 'api_key_file') && !fromGlobal('victorops_api_key') && !fromGlobal('victorops_api_key_file')) {
      d.fail('no global VictorOps API Key set');
    }
  }
  for (const e of entries('discord_configs')) {
    if (!has(e, 'webhook_url') && !has(e, 'webhook_url_file')) d.fail('no discord webhook URL or URLFile provided');
  }
  for (const e of entries('msteams_configs')) {
    if (!has(e, 'webhook_url') && !has(e, 'webhook_url_file')) d.fail('no msteams webhook URL or URLFile provided');
  }
  for (const e of entries('msteamsv2_configs')) {
    if (!has(e, 'webhook_url') && !has(e, 'webhook_url_file')) d.fail('no msteamsv2 webhook URL or URLFile provided');
  }
  for (const e of entries('jira_configs')) {
    if (!has(e, 'api_url') && !fromGlobal('jira_api_url')) d.fail('no global Jira Cloud URL set');
  }
  for (const e of entries('rocketchat_configs')) {
    if (!has(e, 'token_id') && !has(e, 'token_id_file') && !fromGlobal('rocketchat_token_id') && !fromGlobal('rocketchat_token_id_file')) {
      d.fail('no global Rocketchat TokenID set either inline or in a file');
    }
    if (!has(e, 'token') && !has(e, 'token_file') && !fromGlobal('rocketchat_token') && !fromGlobal('rocketchat_token_file')) {
      d.fail('no global Rocketchat Token set either inline or in a file');
    }
  }
}

export function buildReceiver(r: ReceiverSpec, g: GlobalConfig): Receiver {
  const webhookConfigs: WebhookConfig[] = r.webhooks.map((w) => ({
    httpConfig: w.httpConfig ?? g.httpConfig,
    url: w.url,
    urlFile: w.urlFile,
    sendResolved: w.sendResolved,
    maxAlerts: w.maxAlerts,
    timeoutMs: w.timeoutMs,
  }));
  return {
    name: r.name,
    webhookConfigs,
    emailConfigs: r.emails.map((e) => buildEmailConfig(e, g)),
    slackConfigs: r.slacks.map((s) => buildSlackConfig(s, g)),
    pagerdutyConfigs: r.pagerduties.map((p) => buildPagerdutyConfig(p, g)),
    msteamsConfigs: r.msteams.map((m) => buildMsTeamsConfig(m, g)),
    unsupportedConfigs: [...r.others].filter(([key, entries]) => MODELLED[key] === undefined && entries.length > 0).map(([key, entries]) => [key, entries.length] as const),
  };
}

function webhookOut(w: WebhookSpec, g: GlobalConfig): YamlOut {
  const entries: Array<[string, YamlOut]> = [
    ['send_resolved', lit(w.sendResolved)],
    ['http_config', httpConfigOut(w.httpConfig ?? g.httpConfig)],
  ];
  // Alertmanager 0.25 printed the URL itself; later versions print `<secret>`.
  if (w.url !== '') entries.push(['url', str(w.url)]);
  if (w.urlFile !== '') entries.push(['url_file', str(w.urlFile)]);
  entries.push(['max_alerts', lit(w.maxAlerts)]);
  return map(entries);
}

/** A receiver as Alertmanager 0.25 prints it. */
export function receiverOut(r: ReceiverSpec, g: GlobalConfig): YamlOut {
  const entries: Array<[string, YamlOut]> = [['name', str(r.name)]];
  for (const kind of INTEGRATIONS) {
    if (!kind.in025) continue;
    if (kind.key === 'webhook_configs') {
      if (r.webhooks.length > 0) entries.push([kind.key, seq(r.webhooks.map((w) => webhookOut(w, g)))]);
      continue;
    }
    const list = r.others.get(kind.key) ?? [];
    const secrets = new Set([...kind.secrets, ...HTTP_CONFIG_SECRETS]);
    if (list.length > 0) entries.push([kind.key, seq(list.map((e) => maskedPassThrough(e, secrets)))]);
  }
  return map(entries);
}
