/**
 * Glob matching for wildcard rule values: `*` matches zero or more characters, anywhere and
 * any number of times (upstream: trailing `*` since 2023-03, anywhere since 2026-03).
 * Patterns are matched against the request's `key_value` string, as upstream does.
 */
export type WildcardMatcher = (text: string) => boolean;

export function isWildcard(value: string): boolean {
  return value.includes('*');
}

export function compileWildcard(pattern: string): WildcardMatcher {
  const parts = pattern.split('*');
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (parts.length === 2) {
    // The common trailing-star case (`foo*`) and `a*b` reduce to prefix/suffix checks.
    return (text) =>
      text.length >= first.length + last.length && text.startsWith(first) && text.endsWith(last);
  }
  const middle = parts.slice(1, -1);
  return (text) => {
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
    let at = first.length;
    const end = text.length - last.length;
    for (const segment of middle) {
      const found = text.indexOf(segment, at);
      if (found < 0 || found + segment.length > end) return false;
      at = found + segment.length;
    }
    return true;
  };
}
