import { isWellFormed } from './go-text.js';

/**
 * The classic label name rule (Prometheus' `model.LabelNameRE`, `^[a-zA-Z_][a-zA-Z0-9_]*$`):
 * what `match`/`match_re` keys and classic matchers (which also allow `:`) require.
 */
export function isLegacyLabelName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
    const digit = c >= 0x30 && c <= 0x39;
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

/** Label names in UTF-8 and fallback mode (Alertmanager's default): any non-empty UTF-8 text. */
export function isUtf8LabelName(name: string): boolean {
  return name.length > 0 && isWellFormed(name);
}
