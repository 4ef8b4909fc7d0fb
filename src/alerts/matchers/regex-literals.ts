/**
 * What a pattern's text alone says about the values its anchored form `^(?:pattern)$` can
 * match, without compiling it: the exact set of values when the pattern is an alternation of
 * plain literals (`a|b|c`, what silence tools generate for a list of instances), else a prefix
 * every matching value starts with (`host-12.*` → `host-12`). Both are read conservatively:
 * anything this does not understand gives no set and a shorter (or empty) prefix, never a wrong one.
 */

/** RE2's metacharacters outside a character class; every other character stands for itself. */
const META = '\\.+*?()|[]{}^$';
/** What may follow a character and make it optional or repeated. */
const QUANTIFIERS = '*+?{';

export interface PatternLiterals {
  /** Every value the anchored pattern matches, when it is an alternation of literals. */
  exact: ReadonlySet<string> | undefined;
  /** A prefix of every value it matches ('' when nothing is known). */
  prefix: string;
}

const NOTHING_KNOWN: PatternLiterals = { exact: undefined, prefix: '' };

export function patternLiterals(pattern: string): PatternLiterals {
  // A flag group such as `(?i)` changes how the rest of the pattern reads, other branches included.
  if (/\(\?[A-Za-z-]/.test(pattern)) return NOTHING_KNOWN;
  const branches = topLevelBranches(pattern);
  if (branches === undefined) return NOTHING_KNOWN;
  const read = branches.map(readLiteral);
  let prefix = read[0]?.text ?? '';
  for (const branch of read) prefix = commonPrefix(prefix, branch.text);
  const exact = read.every((branch) => branch.whole) ? new Set(read.map((branch) => branch.text)) : undefined;
  return { exact, prefix };
}

/** The pattern cut at its top-level `|`s (outside groups, classes and escapes); undefined if unbalanced. */
function topLevelBranches(pattern: string): string[] | undefined {
  const branches: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 2;
      } else {
        i += 2;
      }
      continue;
    }
    if (char === '[') {
      i = classEnd(pattern, i);
      continue;
    }
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return undefined;
    i++;
  }
  if (depth !== 0) return undefined;
  branches.push(pattern.slice(start));
  return branches;
}

/** Index just past the character class opening at `start` (`[]a]` and `[[:alpha:]]` included). */
export function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') i += 2;
    else if (char === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else if (char === ']') return i + 1;
    else i++;
  }
  return pattern.length;
}

/**
 * The leading literal text of one branch: plain characters and escaped ASCII punctuation
 * (`\.`), up to the first thing that is not one, less a character a quantifier follows.
 * `whole`: the branch is nothing but that text.
 */
function readLiteral(branch: string): { text: string; whole: boolean } {
  let text = '';
  let i = 0;
  while (i < branch.length) {
    const unit = literalAt(branch, i);
    if (unit === undefined) return { text, whole: false };
    const next = branch[i + unit.length];
    if (next !== undefined && QUANTIFIERS.includes(next)) return { text, whole: false };
    text += unit.char;
    i += unit.length;
  }
  return { text, whole: true };
}

/** The literal character at `i` and how many code units spell it, or undefined if it is not one. */
function literalAt(branch: string, i: number): { char: string; length: number } | undefined {
  const char = branch[i] as string;
  if (char === '\\') {
    const escaped = branch[i + 1];
    // In RE2 a backslash before ASCII punctuation means the character itself; before a letter or digit it is a class or an escape.
    if (escaped === undefined || escaped.charCodeAt(0) >= 0x80 || /[A-Za-z0-9]/.test(escaped)) return undefined;
    return { char: escaped, length: 2 };
  }
  if (META.includes(char)) return undefined;
  const codePoint = branch.codePointAt(i) as number;
  const whole = String.fromCodePoint(codePoint);
  return { char: whole, length: whole.length };
}

function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}
