import type { LabelSet, Matcher } from '../matchers/matcher.js';
import type { Templates } from '../templates/templates.js';
import type { EmailConfig } from './email-config.js';
import type { HttpConfig } from './http-config.js';
import type { MsTeamsConfig } from './msteams-config.js';
import type { PagerdutyConfig } from './pagerduty-config.js';
import type { SlackConfig } from './slack-config.js';

/**
 * An Alertmanager configuration file after loading: defaults applied, inheritance resolved,
 * cross-references checked. Only what this service uses is modelled; `original` keeps the whole
 * configuration re-serialised for `GET /api/v2/status`.
 */
export interface AlertmanagerConfig {
  global: { resolveTimeoutMs: number };
  route: Route;
  receivers: readonly Receiver[];
  inhibitRules: readonly InhibitRule[];
  /** `time_intervals` and the deprecated `mute_time_intervals`, by name. */
  timeIntervals: ReadonlyMap<string, TimeInterval>;
  /** The defaults and the `templates:` files, parsed. */
  templates: Templates;
  /**
   * The configuration as Alertmanager's `config.original` shows it: parsed, defaults filled in,
   * secrets as `<secret>`, only keys Alertmanager 0.25 knows (amtool 0.25 parses it strictly).
   */
  original: string;
}

/** One node of the routing tree, with every inherited option resolved. */
export interface Route {
  receiver: string;
  /** Label names to group by; ignored when `groupByAll` (`group_by: ['...']`). */
  groupBy: readonly string[];
  groupByAll: boolean;
  /** `match`, `match_re` and `matchers` together (AND). Empty on the root. */
  matchers: readonly Matcher[];
  continue: boolean;
  groupWaitMs: number;
  groupIntervalMs: number;
  repeatIntervalMs: number;
  /** Not inherited: what this node declares. */
  muteTimeIntervals: readonly string[];
  activeTimeIntervals: readonly string[];
  routes: readonly Route[];
  /**
   * The route's key as Alertmanager prints it in group keys: the parent's key, `/`, and this
   * node's matchers sorted by name, value and type as `{name="value",...}`; the root is `{}`.
   */
  key: string;
  /** `labels:` of the route (newer Alertmanagers), as `routeLabels` in groups; `{}` when none. */
  labels: LabelSet;
}

export interface Receiver {
  name: string;
  webhookConfigs: readonly WebhookConfig[];
  emailConfigs: readonly EmailConfig[];
  slackConfigs: readonly SlackConfig[];
  pagerdutyConfigs: readonly PagerdutyConfig[];
  msteamsConfigs: readonly MsTeamsConfig[];
  /** Integration lists this service does not send (`opsgenie_configs`, ...), with their entry counts, in configuration order. */
  unsupportedConfigs: ReadonlyArray<readonly [string, number]>;
}

export interface WebhookConfig {
  /** Its own `http_config`, or `global.http_config`. */
  httpConfig: HttpConfig;
  /** '' when the URL is read from `urlFile`. */
  url: string;
  /** A file holding the URL (`url_file`); '' when `url` is given. Exactly one of the two is set. */
  urlFile: string;
  sendResolved: boolean;
  /** 0 sends every alert. */
  maxAlerts: number;
  /** 0: no timeout of its own. */
  timeoutMs: number;
}

export interface InhibitRule {
  name: string;
  sourceMatchers: readonly Matcher[];
  targetMatchers: readonly Matcher[];
  equal: readonly string[];
}

/** A named time interval: active when any of its specs contains the instant. */
export interface TimeInterval {
  name: string;
  contains(at: Date): boolean;
}
