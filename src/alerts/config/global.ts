import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { formatDuration, parseDuration } from './duration.js';
import { decodeHttpConfig, decodeTlsConfig, defaultHttpConfig, httpConfigOut, type HttpConfig, type TlsConfig } from './http-config.js';
import { SECRET } from './pass-through.js';
import { checkHostPort, checkUrl } from './url.js';
import { lit, map, str, type YamlOut } from './yaml-emit.js';

/**
 * The `global` block: defaults for integrations. This service uses `resolve_timeout` and the
 * webhooks' inherited `http_config`; the rest is checked as Alertmanager checks it, used for
 * the integration checks that fall back to it, and printed in `config.original`.
 */
type Kind = 'string' | 'secret' | 'url' | 'secret-url' | 'hostport';

/**
 * The string-valued keys, in the order Alertmanager 0.25 prints them. `in025: false` marks
 * keys added later: accepted, but left out of `config.original`, which amtool 0.25 parses
 * strictly.
 */
const STRING_FIELDS: ReadonlyArray<{ key: string; kind: Kind; in025: boolean }> = [
  { key: 'smtp_from', kind: 'string', in025: true },
  { key: 'smtp_hello', kind: 'string', in025: true },
  { key: 'smtp_smarthost', kind: 'hostport', in025: true },
  { key: 'smtp_auth_username', kind: 'string', in025: true },
  { key: 'smtp_auth_password', kind: 'secret', in025: true },
  { key: 'smtp_auth_password_file', kind: 'string', in025: false },
  { key: 'smtp_auth_secret', kind: 'secret', in025: true },
  { key: 'smtp_auth_secret_file', kind: 'string', in025: false },
  { key: 'smtp_auth_identity', kind: 'string', in025: true },
  // smtp_require_tls (a bool) comes here.
  { key: 'slack_api_url', kind: 'secret-url', in025: true },
  { key: 'slack_api_url_file', kind: 'string', in025: true },
  { key: 'slack_app_token', kind: 'secret', in025: false },
  { key: 'slack_app_token_file', kind: 'string', in025: false },
  { key: 'slack_app_url', kind: 'url', in025: false },
  { key: 'pagerduty_url', kind: 'url', in025: true },
  { key: 'opsgenie_api_url', kind: 'url', in025: true },
  { key: 'opsgenie_api_key', kind: 'secret', in025: true },
  { key: 'opsgenie_api_key_file', kind: 'string', in025: true },
  { key: 'wechat_api_url', kind: 'url', in025: true },
  { key: 'wechat_api_secret', kind: 'secret', in025: true },
  { key: 'wechat_api_secret_file', kind: 'string', in025: false },
  { key: 'wechat_api_corp_id', kind: 'string', in025: true },
  { key: 'victorops_api_url', kind: 'url', in025: true },
  { key: 'victorops_api_key', kind: 'secret', in025: true },
  { key: 'victorops_api_key_file', kind: 'string', in025: false },
  { key: 'telegram_api_url', kind: 'url', in025: true },
  { key: 'telegram_bot_token', kind: 'secret', in025: false },
  { key: 'telegram_bot_token_file', kind: 'string', in025: false },
  { key: 'webex_api_url', kind: 'url', in025: true },
  { key: 'jira_api_url', kind: 'url', in025: false },
  { key: 'rocketchat_api_url', kind: 'url', in025: false },
  { key: 'rocketchat_token', kind: 'secret', in025: false },
  { key: 'rocketchat_token_file', kind: 'string', in025: false },
  { key: 'rocketchat_token_id', kind: 'secret', in025: false },
  { key: 'rocketchat_token_id_file', kind: 'string', in025: false },
  { key: 'mattermost_webhook_url', kind: 'secret-url', in025: false },
  { key: 'mattermost_webhook_url_file', kind: 'string', in025: false },
];

export interface GlobalConfig {
  resolveTimeoutMs: number;
  httpConfig: HttpConfig;
  smtpRequireTls: boolean;
  /** `smtp_tls_config` (newer Alertmanagers): the TLS settings of email configurations that set none. */
  smtpTlsConfig: TlsConfig | undefined;
  /** The string-valued keys (including defaults); '' when unset. */
  values: Map<string, string>;
}

export function defaultGlobalConfig(): GlobalConfig {
  return {
    resolveTimeoutMs: 5 * 60_000,
    httpConfig: defaultHttpConfig(),
    smtpRequireTls: true,
    smtpTlsConfig: undefined,
    values: new Map([
      ['smtp_hello', 'localhost'],
      ['pagerduty_url', 'https://events.pagerduty.com/v2/enqueue'],
      ['opsgenie_api_url', 'https://api.opsgenie.com/'],
      ['wechat_api_url', 'https://qyapi.weixin.qq.com/cgi-bin/'],
      ['victorops_api_url', 'https://alert.victorops.com/integrations/generic/20131114/alert/'],
      ['telegram_api_url', 'https://api.telegram.org'],
      ['webex_api_url', 'https://webexapis.com/v1/messages'],
      ['rocketchat_api_url', 'https://open.rocket.chat/'],
    ]),
  };
}

/** The value of a string key, '' when unset. */
export function globalValue(g: GlobalConfig, key: string): string {
  return g.values.get(key) ?? '';
}

export function decodeGlobal(d: Decoder, node: YamlNode): GlobalConfig {
  const g = defaultGlobalConfig();
  const fields: Record<string, (v: YamlNode) => void> = {
    resolve_timeout: (v) => {
      const text = d.string(v);
      if (text === undefined) return;
      const parsed = parseDuration(text);
      if (!parsed.ok) d.fail(parsed.error);
      g.resolveTimeoutMs = parsed.ms;
    },
    http_config: (v) => {
      if (v.kind === 'scalar' && v.tag === '!!null') return;
      g.httpConfig = decodeHttpConfig(d, v);
    },
    smtp_require_tls: (v) => (g.smtpRequireTls = d.bool(v) ?? g.smtpRequireTls),
    smtp_tls_config: (v) => (g.smtpTlsConfig = decodeTlsConfig(d, v)),
  };
  for (const { key, kind } of STRING_FIELDS) {
    fields[key] = (v) => {
      const text = d.string(v);
      if (text === undefined) return;
      if (kind === 'url' || (kind === 'secret-url' && text !== SECRET)) {
        const problem = checkUrl(text);
        if (problem !== undefined) d.fail(problem);
      }
      if (kind === 'hostport') {
        const problem = checkHostPort(text);
        if (problem !== undefined) d.fail(problem);
      }
      g.values.set(key, text);
    };
  }
  d.struct(node, 'config.plain', fields);
  return g;
}

/** `global` as Alertmanager 0.25 prints it: defaults included, secrets masked. */
export function globalOut(g: GlobalConfig): YamlOut {
  const entries: Array<[string, YamlOut]> = [
    ['resolve_timeout', str(formatDuration(g.resolveTimeoutMs))],
    ['http_config', httpConfigOut(g.httpConfig)],
  ];
  for (const { key, kind, in025 } of STRING_FIELDS) {
    if (key === 'slack_api_url') entries.push(['smtp_require_tls', lit(g.smtpRequireTls)]);
    const value = globalValue(g, key);
    if (!in025 || value === '') continue;
    entries.push([key, str(kind === 'secret' || kind === 'secret-url' ? SECRET : value)]);
  }
  return map(entries);
}
