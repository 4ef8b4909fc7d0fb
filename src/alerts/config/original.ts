import { globalOut } from './global.js';
import { inhibitRuleOut } from './inhibit.js';
import type { ConfigSpec } from './spec.js';
import { receiverOut } from './receivers.js';
import { routeOut } from './route.js';
import { namedIntervalOut } from './time-interval.js';
import { map, seq, str, type YamlOut } from './yaml-emit.js';

/**
 * `config.original` as Alertmanager 0.25 shows it (its `Config.String()`, yaml.v2's Marshal of
 * the loaded configuration): defaults filled in, secrets as `<secret>`, keys in Go struct
 * order, and only keys 0.25 knows, so that amtool 0.25, which parses it strictly, accepts it.
 */
export function configOut(spec: ConfigSpec): YamlOut {
  const entries: Array<[string, YamlOut]> = [['global', globalOut(spec.global)]];
  if (spec.route !== undefined) entries.push(['route', routeOut(spec.route)]);
  if (spec.inhibitRules.length > 0) entries.push(['inhibit_rules', seq(spec.inhibitRules.map(inhibitRuleOut))]);
  if (spec.receivers.length > 0) entries.push(['receivers', seq(spec.receivers.map((r) => receiverOut(r, spec.global)))]);
  entries.push(['templates', seq(spec.templates.map(str))]);
  if (spec.muteTimeIntervals.length > 0) entries.push(['mute_time_intervals', seq(spec.muteTimeIntervals.map(namedIntervalOut))]);
  if (spec.timeIntervals.length > 0) entries.push(['time_intervals', seq(spec.timeIntervals.map(namedIntervalOut))]);
  return map(entries);
}
