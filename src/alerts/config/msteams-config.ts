import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { isNull } from './decode-context.js';
import { goDuration } from './go-duration.js';
import type { GlobalConfig } from './global.js';
import { decodeHttpConfig, type HttpConfig } from './http-config.js';
import { decodeSecretUrl } from './slack-config.js';

/**
 * An `msteams_configs` entry after loading (Alertmanager 0.26's config.MSTeamsConfig, an
 * incoming webhook that takes a MessageCard). Text fields are templates.
 */
export interface MsTeamsConfig {
  sendResolved: boolean;
  httpConfig: HttpConfig;
  /** '' when the URL is read from `webhookUrlFile` at each send. */
  webhookUrl: string;
  webhookUrlFile: string;
  title: string;
  summary: string;
  text: string;
  /** 0: no bound of its own. */
  timeoutMs: number;
}

export interface MsTeamsSpec extends Omit<MsTeamsConfig, 'httpConfig'> {
  httpConfig: HttpConfig | undefined;
}

export function decodeMsTeamsConfig(d: Decoder, node: YamlNode): MsTeamsSpec {
  const m: MsTeamsSpec = {
    sendResolved: true,
    httpConfig: undefined,
    webhookUrl: '',
    webhookUrlFile: '',
    title: '{{ template "msteams.default.title" . }}',
    summary: '{{ template "msteams.default.summary" . }}',
    text: '{{ template "msteams.default.text" . }}',
    timeoutMs: 0,
  };
  const text = (v: YamlNode): string => d.string(v) ?? '';
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        send_resolved: (v) => (m.sendResolved = d.bool(v) ?? m.sendResolved),
        http_config: (v) => {
          if (!isNull(v)) m.httpConfig = decodeHttpConfig(d, v);
        },
        webhook_url: (v) => (m.webhookUrl = decodeSecretUrl(d, v)),
        webhook_url_file: (v) => (m.webhookUrlFile = text(v)),
        title: (v) => (m.title = text(v)),
        summary: (v) => (m.summary = text(v)),
        text: (v) => (m.text = text(v)),
        timeout: (v) => (m.timeoutMs = goDuration(d, v)),
      });
      return m;
    },
    (teams) => {
      if (teams.webhookUrl !== '' && teams.webhookUrlFile !== '') d.fail('at most one of webhook_url & webhook_url_file must be configured');
    },
  );
}

export function buildMsTeamsConfig(m: MsTeamsSpec, g: GlobalConfig): MsTeamsConfig {
  return { ...m, httpConfig: m.httpConfig ?? g.httpConfig };
}
