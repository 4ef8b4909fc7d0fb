import type { GlobalConfig } from './global.js';
import type { InhibitRuleSpec } from './inhibit.js';
import type { ReceiverSpec } from './receivers.js';
import type { RouteSpec } from './route.js';
import type { NamedInterval } from './time-interval.js';

/** The configuration as written, after decoding (Alertmanager's config.Config). */
export interface ConfigSpec {
  global: GlobalConfig;
  route: RouteSpec | undefined;
  inhibitRules: InhibitRuleSpec[];
  receivers: ReceiverSpec[];
  templates: string[];
  muteTimeIntervals: NamedInterval[];
  timeIntervals: NamedInterval[];
}
