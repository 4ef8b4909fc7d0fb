import { parseYaml, type YamlNode } from '../../yaml/index.js';
import { goQuote } from '../matchers/index.js';
import { ConfigCheckError, Decoder, isNull } from './decode-context.js';
import { decodeGlobal, defaultGlobalConfig, globalValue } from './global.js';
import { buildInhibitRule, decodeInhibitRule } from './inhibit.js';
import type { AlertmanagerConfig, TimeInterval } from './model.js';
import type { ConfigSpec } from './spec.js';
import { configOut } from './original.js';
import { buildReceiver, checkIntegrations, decodeReceiver } from './receivers.js';
import { buildRoute, decodeRoute, firstUndefined } from './route.js';
import { decodeNamedInterval, timeIntervalOf } from './time-interval.js';
import { emitYaml } from './yaml-emit.js';
import { loadTemplateFiles } from '../templates/template-files.js';

export type LoadResult = { ok: true; value: AlertmanagerConfig } | { ok: false; error: string };

/** Configuration files are a few kilobytes; this bounds the work one load may do. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export interface LoadOptions {
  /** The configuration file's directory: `templates:` globs are relative to it. The working directory by default. */
  baseDir?: string;
}

/**
 * Loads an Alertmanager configuration file as Alertmanager's config.Load does: strict YAML
 * (unknown keys are errors), defaults, the same checks with the same messages, in the same
 * order, then its `templates:` files. Never throws: any failure is the error text.
 */
export function loadAlertmanagerConfig(text: string, options: LoadOptions = {}): LoadResult {
  try {
    return load(text, options.baseDir ?? '.');
  } catch (error) {
    if (error instanceof ConfigCheckError) return { ok: false, error: error.message };
    // Nothing else is expected; a value still comes back whatever the input.
    return { ok: false, error: `cannot load configuration: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function load(text: string, baseDir: string): LoadResult {
  if (text.length > MAX_CONFIG_BYTES) return { ok: false, error: `configuration too large: more than ${MAX_CONFIG_BYTES} bytes` };
  const tree = parseYaml(text);
  if (!tree.ok) return { ok: false, error: tree.error };
  // An empty document never reaches Alertmanager's own checks.
  if (tree.root === null) return { ok: false, error: 'no route provided in config' };

  const d = new Decoder();
  const spec = decodeConfig(d, tree.root);
  if (d.typeErrors.length > 0) return { ok: false, error: `yaml: unmarshal errors:\n  ${d.typeErrors.join('\n  ')}` };
  checkConfig(d, spec);
  const route = spec.route;
  if (route === undefined) return { ok: false, error: 'no route provided in config' };
  if (route.continue) return { ok: false, error: 'cannot have continue in root route' };

  const templates = loadTemplateFiles(spec.templates, baseDir);
  if (!templates.ok) return templates;

  const timeIntervals = new Map<string, TimeInterval>();
  for (const named of [...spec.muteTimeIntervals, ...spec.timeIntervals]) timeIntervals.set(named.name, timeIntervalOf(named));
  return {
    ok: true,
    value: {
      global: { resolveTimeoutMs: spec.global.resolveTimeoutMs },
      route: buildRoute(route, undefined),
      receivers: spec.receivers.map((receiver) => buildReceiver(receiver, spec.global)),
      inhibitRules: spec.inhibitRules.map(buildInhibitRule),
      timeIntervals,
      templates: templates.value,
      original: emitYaml(configOut(spec)),
    },
  };
}

function decodeConfig(d: Decoder, root: YamlNode): ConfigSpec {
  const spec: ConfigSpec = {
    global: defaultGlobalConfig(),
    route: undefined,
    inhibitRules: [],
    receivers: [],
    templates: [],
    muteTimeIntervals: [],
    timeIntervals: [],
  };
  d.struct(root, 'config.plain', {
    global: (v) => (spec.global = decodeGlobal(d, v)),
    route: (v) => (spec.route = isNull(v) ? undefined : decodeRoute(d, v)),
    inhibit_rules: (v) => (spec.inhibitRules = d.list(v, '[]config.InhibitRule', (item) => decodeInhibitRule(d, item)) ?? []),
    receivers: (v) => (spec.receivers = d.list(v, '[]config.Receiver', (item) => decodeReceiver(d, item)) ?? []),
    templates: (v) => (spec.templates = d.stringList(v) ?? []),
    mute_time_intervals: (v) => (spec.muteTimeIntervals = d.list(v, '[]config.MuteTimeInterval', (item) => decodeNamedInterval(d, item, true)) ?? []),
    time_intervals: (v) => (spec.timeIntervals = d.list(v, '[]config.TimeInterval', (item) => decodeNamedInterval(d, item, false)) ?? []),
    // Newer Alertmanagers' tracing settings: accepted, not used, not printed.
    tracing: (v) => void (v.kind === 'map' || isNull(v) ? undefined : d.typeError(v, 'config.plain')),
  });
  return spec;
}

/** Config.UnmarshalYAML's checks across sections, in its order. */
function checkConfig(d: Decoder, spec: ConfigSpec): void {
  const g = spec.global;
  const both = (a: string, b: string): boolean => globalValue(g, a) !== '' && globalValue(g, b) !== '';
  for (const [a, b] of [
    ['slack_api_url', 'slack_api_url_file'],
    ['opsgenie_api_key', 'opsgenie_api_key_file'],
    ['victorops_api_key', 'victorops_api_key_file'],
    ['smtp_auth_password', 'smtp_auth_password_file'],
    ['rocketchat_token', 'rocketchat_token_file'],
    ['rocketchat_token_id', 'rocketchat_token_id_file'],
    ['smtp_auth_secret', 'smtp_auth_secret_file'],
  ] as const) {
    if (both(a, b)) d.fail(`at most one of ${a} & ${b} must be configured`);
  }

  const names = new Set<string>();
  for (const receiver of spec.receivers) {
    if (names.has(receiver.name)) d.fail(`notification config name ${goQuote(receiver.name)} is not unique`);
    checkIntegrations(d, receiver, g);
    names.add(receiver.name);
  }

  const root = spec.route;
  if (root === undefined) d.fail('no routes provided');
  if (root.receiver === '') d.fail('root route must specify a default receiver');
  if ((root.match?.length ?? 0) > 0 || (root.matchRe?.length ?? 0) > 0 || (root.matchers?.length ?? 0) > 0) d.fail('root route must not have any matchers');
  if ((root.muteTimeIntervals?.length ?? 0) > 0) d.fail('root route must not have any mute time intervals');
  if ((root.activeTimeIntervals?.length ?? 0) > 0) d.fail('root route must not have any active time intervals');

  const undefinedReceiver = firstUndefined(root, (r) => (r.receiver === '' ? [] : [r.receiver]), names);
  if (undefinedReceiver !== undefined) d.fail(`undefined receiver ${goQuote(undefinedReceiver)} used in route`);

  const intervals = new Set<string>();
  for (const named of spec.muteTimeIntervals) {
    if (intervals.has(named.name)) d.fail(`mute time interval ${goQuote(named.name)} is not unique`);
    intervals.add(named.name);
  }
  for (const named of spec.timeIntervals) {
    if (intervals.has(named.name)) d.fail(`time interval ${goQuote(named.name)} is not unique`);
    intervals.add(named.name);
  }
  const undefinedInterval = firstUndefined(root, (r) => [...(r.activeTimeIntervals ?? []), ...(r.muteTimeIntervals ?? [])], intervals);
  if (undefinedInterval !== undefined) d.fail(`undefined time interval ${goQuote(undefinedInterval)} used in route`);
}
