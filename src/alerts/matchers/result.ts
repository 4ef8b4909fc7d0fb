/** What the parsers and constructors here return: a value, or Alertmanager's error text. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parsed<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function failed<T = never>(error: string): Parsed<T> {
  return { ok: false, error };
}
