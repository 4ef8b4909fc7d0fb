/**
 * A label matcher as Alertmanager has them (`name="value"`, `!=`, `=~`, `!~`): in `filter`
 * query parameters, silences, routes and inhibition rules. Regular expressions have Go's RE2
 * semantics and are fully anchored (`^(?:value)$`).
 */
export type MatchType = '=' | '!=' | '=~' | '!~';

export interface Matcher {
  readonly name: string;
  readonly type: MatchType;
  /** The value as written (unquoted, unescaped); for regex types the pattern before anchoring. */
  readonly value: string;
  /** Whether a label set matches; a missing label counts as the empty string. */
  matches(labels: Readonly<Record<string, string>>): boolean;
  /** Whether the value `value` alone matches (what `matches` applies to one label's value). */
  matchesValue(value: string): boolean;
}

/** Labels of an alert: name -> value (never an empty value: Alertmanager drops those). */
export type LabelSet = Readonly<Record<string, string>>;
