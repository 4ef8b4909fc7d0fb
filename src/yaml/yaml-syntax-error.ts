import type { LineCounter, YAMLError } from 'yaml';
import { lastTokenBefore, nextValueIndicator } from './yaml-tokens.js';

/**
 * yaml.v2's text for a syntax error the `yaml` package found: libyaml's wording for the mistakes
 * people make in configuration files, at the line yaml.v2 names. yaml.v2 takes that line from
 * where libyaml noticed the problem, and counts it two ways: a scanner error (a character that
 * cannot be there) names its line; a parser error (a token in the wrong place) names the line
 * before it, being 0-based; an error on the first line names none. Errors without a libyaml
 * counterpart here keep the `yaml` package's wording and line.
 */
export function syntaxErrorText(error: YAMLError, text: string, lines: LineCounter): string {
  const first = error.message.split('\n')[0] ?? '';
  // The parser recurses per level, so a file nested thousands deep ends its stack.
  const line = `line ${lines.linePos(error.pos[0]).line}: `;
  if (first.includes('Maximum call stack size exceeded')) return `yaml: ${line}document nests too deeply`;
  const libyaml = libyamlError(error.code, first, error.pos[0], new Source(text, lines));
  if (libyaml === undefined) return `yaml: ${line}${first}`;
  const named = libyaml.line === 1 ? undefined : libyaml.stage === 'scanner' ? libyaml.line : libyaml.line - 1;
  return `yaml: ${named === undefined ? '' : `line ${named}: `}${libyaml.message}`;
}

interface LibyamlError {
  message: string;
  stage: 'scanner' | 'parser';
  /** The 1-based line where libyaml notices the problem. */
  line: number;
}

/** The text being parsed, read by line. */
class Source {
  constructor(
    readonly text: string,
    private readonly lines: LineCounter,
  ) {}

  line(offset: number): number {
    return this.lines.linePos(offset).line;
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** Spaces before the first other character of the line holding `offset`, tabs included. */
  indentation(offset: number): string {
    return /^[ \t]*/.exec(this.text.slice(this.lineStart(offset)))?.[0] ?? '';
  }

  /** The indentation of the first line after the one holding `offset` with anything but spaces on it (-1 if none). */
  nextContentIndent(offset: number): number {
    const next = /\n([ \t]*)[^ \t\r\n]/.exec(this.text.slice(offset));
    return next === null ? -1 : (next[1] ?? '').length;
  }

  /**
   * The first line after the one holding `offset` with anything but spaces on it; past the last,
   * the line libyaml's scanner ends on, which is the next one when the text does not end in a
   * line break.
   */
  nextContentLine(offset: number): number {
    const next = /\n[ \t]*[^ \t\r\n]/.exec(this.text.slice(offset));
    if (next !== null) return this.line(offset + next.index + 1);
    const end = this.line(this.text.length);
    return this.text === '' || this.text.endsWith('\n') ? end : end + 1;
  }
}

const MAPPING_VALUES = 'mapping values are not allowed in this context';
const EXPECTED_KEY = 'did not find expected key';
const EXPECTED_DASH = "did not find expected '-' indicator";
const EXPECTED_COLON = "could not find expected ':'";

interface Rule {
  codes: readonly YAMLError['code'][];
  /** Where one code has several messages, the one this rule reads. */
  message?: RegExp;
  libyaml(at: number, source: Source): LibyamlError | undefined;
}

const scanner = (message: string, line: number): LibyamlError => ({ message, stage: 'scanner', line });
const parser = (message: string, line: number): LibyamlError => ({ message, stage: 'parser', line });

/** How each error the `yaml` package reports reads in libyaml. */
const RULES: readonly Rule[] = [
  { codes: ['MISSING_CHAR'], message: /quote/, libyaml: (at, s) => scanner('found unexpected end of stream', s.line(at)) },
  { codes: ['MISSING_CHAR', 'BAD_INDENT'], message: /^Flow sequence/, libyaml: (at, s) => parser("did not find expected ',' or ']'", s.line(at)) },
  { codes: ['MISSING_CHAR', 'BAD_INDENT'], message: /^Flow map/, libyaml: (at, s) => parser("did not find expected ',' or '}'", s.line(at)) },
  { codes: ['MISSING_CHAR'], message: /^Sequence item without/, libyaml: (at, s) => parser(EXPECTED_DASH, s.line(at)) },
  {
    codes: ['MISSING_CHAR'],
    message: /^Implicit map keys need to be followed by map values/,
    // libyaml gives up on the key when its scanner moves on to a later line.
    libyaml: (at, s) => scanner(EXPECTED_COLON, s.nextContentLine(at)),
  },
  { codes: ['BAD_INDENT'], message: /^All sequence items/, libyaml: (at, s) => parser(EXPECTED_DASH, s.line(at)) },
  { codes: ['BAD_INDENT'], message: /^All mapping items/, libyaml: (at, s) => parser(expectedNext(at, s), s.line(at)) },
  { codes: ['TAB_AS_INDENT'], libyaml: (at, s) => tabInIndentation(at, s) },
  { codes: ['BLOCK_AS_IMPLICIT_KEY'], message: /^Nested mappings/, libyaml: (at, s) => scanner(MAPPING_VALUES, s.line(nextValueIndicator(s.text, at))) },
  { codes: ['BLOCK_AS_IMPLICIT_KEY'], message: /^A block sequence/, libyaml: (at, s) => parser(EXPECTED_KEY, s.line(at)) },
  { codes: ['MULTILINE_IMPLICIT_KEY'], libyaml: (at, s) => keyWithoutValue(at, s) },
  { codes: ['BAD_SCALAR_START'], libyaml: (at, s) => scanner('found character that cannot start any token', s.line(at)) },
  { codes: ['BAD_DQ_ESCAPE'], libyaml: (at, s) => scanner('found unknown escape character', s.line(at)) },
  {
    codes: ['UNEXPECTED_TOKEN'],
    message: /block-seq-ind on same line with key/,
    libyaml: (at, s) => scanner('block sequence entries are not allowed in this context', s.line(at)),
  },
  { codes: ['UNEXPECTED_TOKEN'], message: /flow-(seq|map)-end token|at node end/, libyaml: (at, s) => parser(expectedNext(at, s), s.line(at)) },
];

function libyamlError(code: YAMLError['code'], message: string, at: number, source: Source): LibyamlError | undefined {
  // libyaml's scanner meets a tab in a line's indentation before its parser can find the line misplaced.
  const indentation = source.indentation(at);
  const tab = indentation.indexOf('\t');
  if (tab !== -1 && at <= source.lineStart(at) + indentation.length) return tabInIndentation(source.lineStart(at) + tab, source);
  const rule = RULES.find((r) => r.codes.includes(code) && (r.message === undefined || r.message.test(message)));
  return rule?.libyaml(at, source);
}

/**
 * A plain or block scalar reads on over the next line's indentation to see whether it continues
 * there, and stops at the tab; after any other token the tab is a token of its own.
 */
function tabInIndentation(at: number, source: Source): LibyamlError {
  const message = {
    plain: 'found a tab character that violates indentation',
    block: 'found a tab character where an indentation space is expected',
    other: 'found character that cannot start any token',
  }[lastTokenBefore(source.text, at)];
  return scanner(message, source.line(at));
}

/**
 * A `- ` where a mapping's next key belongs, or a key whose `:` is not on its line. libyaml reads a
 * plain scalar on over the lines indented past it; a key that must have a value (the next one of a
 * mapping) fails once the scanner has left its line, and any other key at the `:`, too late.
 */
function keyWithoutValue(at: number, source: Source): LibyamlError {
  if (/^-(\s|$)/.test(source.text.slice(at))) return parser(EXPECTED_KEY, source.line(at));
  const column = at - source.lineStart(at);
  const continues = source.nextContentIndent(at) > column;
  const valueLine = source.line(nextValueIndicator(source.text, at));
  const entry = enclosingEntry(at, source);
  const required = at === source.lineStart(at) + source.indentation(at).length && entry?.column === column && entry.key;
  if (!required) return scanner(MAPPING_VALUES, valueLine);
  return scanner(EXPECTED_COLON, continues ? valueLine : source.nextContentLine(at));
}

/**
 * What libyaml's parser wanted instead of the token at `at`: the next entry of the block
 * collection it was in, `- ` in a sequence and a key in a mapping. A token that starts its line
 * belongs to the collection whose entries start at that column; one within a line, to the
 * innermost collection the line opened before it.
 */
function expectedNext(at: number, source: Source): string {
  const lineStart = source.lineStart(at);
  const indent = source.indentation(at).length;
  if (at > lineStart + indent) {
    const before = source.text.slice(lineStart + indent, at);
    const dashes = /^(-\s+)*/.exec(before)?.[0] ?? '';
    return dashes === '' || /:(\s|$)/.test(before.slice(dashes.length)) ? EXPECTED_KEY : EXPECTED_DASH;
  }
  const entry = enclosingEntry(at, source);
  return entry?.indent === indent && entry.sequence ? EXPECTED_DASH : EXPECTED_KEY;
}

/**
 * The nearest earlier line indented no deeper than the line holding `at`: the entry of the block
 * collection `at` is in, or of the one around it. `column` is where its content starts, past any
 * `- `; `key` says whether that content is a mapping key.
 */
function enclosingEntry(at: number, source: Source): { indent: number; column: number; sequence: boolean; key: boolean } | undefined {
  const indent = source.indentation(at).length;
  for (const line of source.text.slice(0, source.lineStart(at)).split('\n').reverse()) {
    const content = line.trimStart();
    const lineIndent = line.length - content.length;
    if (content === '' || content.startsWith('#') || lineIndent > indent) continue;
    const dashes = /^(-(\s+|$))*/.exec(content)?.[0] ?? '';
    const rest = content.slice(dashes.length);
    return { indent: lineIndent, column: lineIndent + dashes.length, sequence: dashes !== '', key: /:(\s|$)/.test(rest) };
  }
  return undefined;
}
