import type { YamlNode } from '../../yaml/index.js';
import type { Decoder } from './decode-context.js';
import { isNull } from './decode-context.js';
import { goDuration } from './go-duration.js';
import { globalValue, type GlobalConfig } from './global.js';
import { decodeHttpConfig, type HttpConfig } from './http-config.js';
import { SECRET } from './pass-through.js';
import { checkUrl } from './url.js';

/** A `slack_configs` entry after loading (Alertmanager's config.SlackConfig, globals copied in). Text fields are templates. */
export interface SlackConfig {
  sendResolved: boolean;
  httpConfig: HttpConfig;
  /** '' when the URL is read from `apiUrlFile` at each send. */
  apiUrl: string;
  apiUrlFile: string;
  channel: string;
  username: string;
  color: string;
  title: string;
  titleLink: string;
  pretext: string;
  text: string;
  fields: readonly SlackField[];
  /** `short` of the fields that do not say. */
  shortFields: boolean;
  footer: string;
  fallback: string;
  callbackId: string;
  iconEmoji: string;
  iconUrl: string;
  imageUrl: string;
  thumbUrl: string;
  linkNames: boolean;
  /** Empty: Slack's `fallback`, `pretext` and `text` are markdown. */
  mrkdwnIn: readonly string[];
  actions: readonly SlackAction[];
  /** 0: no bound of its own. */
  timeoutMs: number;
}

export interface SlackField {
  title: string;
  value: string;
  short: boolean | undefined;
}

export interface SlackAction {
  type: string;
  text: string;
  url: string;
  style: string;
  name: string;
  value: string;
  confirm: SlackConfirmation | undefined;
}

export interface SlackConfirmation {
  text: string;
  title: string;
  okText: string;
  dismissText: string;
}

export interface SlackSpec extends Omit<SlackConfig, 'httpConfig'> {
  /** Undefined: inherits `global.http_config`. */
  httpConfig: HttpConfig | undefined;
}

/** A URL setting that may be written as `<secret>` (config.SecretURL): checked otherwise. */
export function decodeSecretUrl(d: Decoder, node: YamlNode): string {
  const url = d.string(node, 'config.SecretURL') ?? '';
  if (url !== '' && url !== SECRET) {
    const problem = checkUrl(url);
    if (problem !== undefined) d.fail(problem);
  }
  return url;
}

function decodeField(d: Decoder, node: YamlNode): SlackField {
  const f: SlackField = { title: '', value: '', short: undefined };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        title: (v) => (f.title = d.string(v) ?? ''),
        value: (v) => (f.value = d.string(v) ?? ''),
        short: (v) => (f.short = isNull(v) ? undefined : d.bool(v)),
      });
      return f;
    },
    (field) => {
      if (field.title === '') d.fail('missing title in Slack field configuration');
      if (field.value === '') d.fail('missing value in Slack field configuration');
    },
  );
}

function decodeConfirmation(d: Decoder, node: YamlNode): SlackConfirmation | undefined {
  if (isNull(node)) return undefined;
  const c: SlackConfirmation = { text: '', title: '', okText: '', dismissText: '' };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        text: (v) => (c.text = d.string(v) ?? ''),
        title: (v) => (c.title = d.string(v) ?? ''),
        ok_text: (v) => (c.okText = d.string(v) ?? ''),
        dismiss_text: (v) => (c.dismissText = d.string(v) ?? ''),
      });
      return c;
    },
    (confirm) => {
      if (confirm.text === '') d.fail('missing text in Slack confirmation configuration');
    },
  );
}

function decodeAction(d: Decoder, node: YamlNode): SlackAction {
  const a: SlackAction = { type: '', text: '', url: '', style: '', name: '', value: '', confirm: undefined };
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        type: (v) => (a.type = d.string(v) ?? ''),
        text: (v) => (a.text = d.string(v) ?? ''),
        url: (v) => (a.url = d.string(v) ?? ''),
        style: (v) => (a.style = d.string(v) ?? ''),
        name: (v) => (a.name = d.string(v) ?? ''),
        value: (v) => (a.value = d.string(v) ?? ''),
        confirm: (v) => (a.confirm = decodeConfirmation(d, v)),
      });
      return a;
    },
    (action) => {
      if (action.type === '') d.fail('missing type in Slack action configuration');
      if (action.text === '') d.fail('missing text in Slack action configuration');
      if (action.url !== '') {
        // A link button: the message-action fields do not apply.
        action.name = '';
        action.value = '';
        action.confirm = undefined;
      } else if (action.name === '') {
        d.fail('missing name or url in Slack action configuration');
      }
    },
  );
}

export function decodeSlackConfig(d: Decoder, node: YamlNode): SlackSpec {
  const s: SlackSpec = {
    sendResolved: false,
    httpConfig: undefined,
    apiUrl: '',
    apiUrlFile: '',
    channel: '',
    username: '{{ template "slack.default.username" . }}',
    color: '{{ if eq .Status "firing" }}danger{{ else }}good{{ end }}',
    title: '{{ template "slack.default.title" . }}',
    titleLink: '{{ template "slack.default.titlelink" . }}',
    pretext: '{{ template "slack.default.pretext" . }}',
    text: '{{ template "slack.default.text" . }}',
    fields: [],
    shortFields: false,
    footer: '{{ template "slack.default.footer" . }}',
    fallback: '{{ template "slack.default.fallback" . }}',
    callbackId: '{{ template "slack.default.callbackid" . }}',
    iconEmoji: '{{ template "slack.default.iconemoji" . }}',
    iconUrl: '{{ template "slack.default.iconurl" . }}',
    imageUrl: '',
    thumbUrl: '',
    linkNames: false,
    mrkdwnIn: [],
    actions: [],
    timeoutMs: 0,
  };
  const text = (v: YamlNode): string => d.string(v) ?? '';
  const ignored = (v: YamlNode): void => void d.string(v);
  return d.withChecks(
    () => {
      d.struct(node, 'config.plain', {
        send_resolved: (v) => (s.sendResolved = d.bool(v) ?? s.sendResolved),
        http_config: (v) => {
          if (!isNull(v)) s.httpConfig = decodeHttpConfig(d, v);
        },
        api_url: (v) => (s.apiUrl = decodeSecretUrl(d, v)),
        api_url_file: (v) => (s.apiUrlFile = text(v)),
        channel: (v) => (s.channel = text(v)),
        username: (v) => (s.username = text(v)),
        color: (v) => (s.color = text(v)),
        title: (v) => (s.title = text(v)),
        title_link: (v) => (s.titleLink = text(v)),
        pretext: (v) => (s.pretext = text(v)),
        text: (v) => (s.text = text(v)),
        fields: (v) => (s.fields = d.list(v, '[]*config.SlackField', (item) => decodeField(d, item)) ?? []),
        short_fields: (v) => (s.shortFields = d.bool(v) ?? false),
        footer: (v) => (s.footer = text(v)),
        fallback: (v) => (s.fallback = text(v)),
        callback_id: (v) => (s.callbackId = text(v)),
        icon_emoji: (v) => (s.iconEmoji = text(v)),
        icon_url: (v) => (s.iconUrl = text(v)),
        image_url: (v) => (s.imageUrl = text(v)),
        thumb_url: (v) => (s.thumbUrl = text(v)),
        link_names: (v) => (s.linkNames = d.bool(v) ?? false),
        mrkdwn_in: (v) => (s.mrkdwnIn = d.stringList(v) ?? []),
        actions: (v) => (s.actions = d.list(v, '[]*config.SlackAction', (item) => decodeAction(d, item)) ?? []),
        timeout: (v) => (s.timeoutMs = goDuration(d, v)),
        // Newer Alertmanagers' settings (Slack's Web API with an app token): accepted, not used.
        app_token: ignored,
        app_token_file: ignored,
        app_url: ignored,
        edit_messages: (v) => void d.bool(v),
      });
      return s;
    },
    (slack) => {
      if (slack.apiUrl !== '' && slack.apiUrlFile !== '') d.fail('at most one of api_url & api_url_file must be configured');
    },
  );
}

/** The entry with `global.http_config` and the global Slack URL copied into what it leaves unset. */
export function buildSlackConfig(s: SlackSpec, g: GlobalConfig): SlackConfig {
  const fromGlobal = s.apiUrl === '' && s.apiUrlFile === '';
  return {
    ...s,
    httpConfig: s.httpConfig ?? g.httpConfig,
    apiUrl: fromGlobal ? globalValue(g, 'slack_api_url') : s.apiUrl,
    apiUrlFile: fromGlobal ? globalValue(g, 'slack_api_url_file') : s.apiUrlFile,
  };
}
