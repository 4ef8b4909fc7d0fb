/**
 * html/template's contextual escaping, as far as notification emails need it. The HTML context
 * is followed through the template's own text as it is written out (text, tag, attribute name,
 * quoted or unquoted attribute value, URL attribute and its part, RCDATA and raw-text elements,
 * comments), and each printed value goes through the escapers Go's escaper would have inserted
 * there (html/template/escape.go): `&lt;` `&#39;` `&#34;` `&#43;` in text and attributes, Go's
 * URL filter and normaliser in `href` / `src`, `safeHtml` output left as it is in text. HTML
 * comments in the template's text are dropped, as Go drops them.
 */
import type { Output } from './exec.js';
import { argsText, htmlEscapeString, HTML_TYPE, queryEscape, URL_TYPE } from './builtins.js';
import type { CommandNode, PipeNode } from './nodes.js';
import { ExecError, GoTypedString, sprint, type GoValue } from './values.js';

type Content = 'plain' | 'html' | 'url';
type AttrType = 'normal' | 'url' | 'js' | 'css';
type Delim = '"' | "'" | ' ';

type State =
  | { kind: 'text' }
  | { kind: 'comment' }
  | { kind: 'tag'; element: string }
  | { kind: 'attrName'; element: string; name: string }
  | { kind: 'afterName'; element: string; name: string }
  | { kind: 'beforeValue'; element: string; name: string }
  | { kind: 'attr'; element: string; type: AttrType; delim: Delim; urlPart: 'none' | 'pre' | 'query' }
  | { kind: 'raw'; element: string; rcdata: boolean };

type Escaper = 'htmlEscaper' | 'attrEscaper' | 'rcdataEscaper' | 'nospaceEscaper' | 'urlFilter' | 'urlNormalizer' | 'urlEscaper' | 'jsValEscaper' | 'cssValueFilter' | 'htmlNameFilter' | 'html' | 'urlquery';

/** html/template's equivEscapers: the predefined escaper each of its own may be replaced by. */
const EQUIVALENT: Partial<Record<Escaper, 'html' | 'urlquery'>> = {
  attrEscaper: 'html',
  htmlEscaper: 'html',
  rcdataEscaper: 'html',
  urlEscaper: 'urlquery',
  urlNormalizer: 'urlquery',
};

const URL_ATTRS = new Set(['action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns']);
const RCDATA = new Set(['textarea', 'title']);
const RAW_TEXT = new Set(['script', 'style']);

const HTML_TABLE: Readonly<Record<string, string>> = { '\0': '\uFFFD', '"': '&#34;', '&': '&amp;', "'": '&#39;', '+': '&#43;', '<': '&lt;', '>': '&gt;' };
const HTML_NORM_TABLE: Readonly<Record<string, string>> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '+': '&#43;', '<': '&lt;', '>': '&gt;' };
const NOSPACE_TABLE: Readonly<Record<string, string>> = {
  '\0': '&#xfffd;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\v': '&#11;',
  '\f': '&#12;',
  '\r': '&#13;',
  ' ': '&#32;',
  '"': '&#34;',
  '&': '&amp;',
  "'": '&#39;',
  '+': '&#43;',
  '<': '&lt;',
  '=': '&#61;',
  '>': '&gt;',
  '`': '&#96;',
};
const FILTER_FAILSAFE = 'ZgotmplZ';

const replace = (text: string, table: Readonly<Record<string, string>>) => text.replace(/[\0\t\n\v\f\r "&'+<=>`]/g, (c) => table[c] ?? c);

/** html/template's stripTags, for HTML content put into an attribute: its text without tags. */
function stripTags(html: string): string {
  return html.replace(/<!--[\s\S]*?-->|<\/?[A-Za-z][^>]*>/g, '');
}

/** Go's urlProcessor: percent-encodes what may not appear in a URL (`norm` keeps reserved characters and escapes). */
function urlProcess(text: string, norm: boolean): string {
  let out = '';
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c)) out += c;
    else if (norm && '!#$&*+,/:;=?@[]'.includes(c)) out += c;
    else if (norm && c === '%' && /^[0-9a-fA-F]{2}$/.test(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0))) out += c;
    else out += '%' + byte.toString(16).padStart(2, '0');
  }
  return out;
}

function isSafeUrl(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon < 0) return true;
  const protocol = text.slice(0, colon);
  if (protocol.includes('/')) return true;
  return ['http', 'https', 'mailto'].includes(protocol.toLowerCase());
}

/** html/template's stringify: typed content keeps its type; anything else prints as fmt does. */
function stringify(value: GoValue): [string, Content] {
  if (value instanceof GoTypedString) {
    if (value.type.name === HTML_TYPE.name) return [value.value, 'html'];
    if (value.type.name === URL_TYPE.name) return [value.value, 'url'];
    return [value.value, 'plain'];
  }
  if (typeof value === 'string') return [value, 'plain'];
  // An untyped nil prints nothing here (Go skips it), rather than `<nil>`.
  if (value === null || value === undefined) return ['', 'plain'];
  return [sprint([value]), 'plain'];
}

function applyEscaper(escaper: Escaper, text: string, content: Content): [string, Content] {
  switch (escaper) {
    case 'htmlEscaper':
      return [content === 'html' ? text : replace(text, HTML_TABLE), 'plain'];
    case 'attrEscaper':
      return [content === 'html' ? replace(stripTags(text), HTML_NORM_TABLE) : replace(text, HTML_TABLE), 'plain'];
    case 'rcdataEscaper':
      return [replace(text, content === 'html' ? HTML_NORM_TABLE : HTML_TABLE), 'plain'];
    case 'nospaceEscaper':
      return [content === 'html' ? replace(stripTags(text), { ...NOSPACE_TABLE, '&': '&' }) : replace(text, NOSPACE_TABLE), 'plain'];
    case 'urlFilter':
      return content === 'url' || isSafeUrl(text) ? [text, content] : ['#' + FILTER_FAILSAFE, 'plain'];
    case 'urlNormalizer':
      return [urlProcess(text, true), 'plain'];
    case 'urlEscaper':
      return [urlProcess(text, content === 'url'), 'plain'];
    case 'jsValEscaper':
      return [JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + (c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')), 'plain'];
    case 'cssValueFilter':
      return [/^[\w\s#%.,-]*$/.test(text) ? text : FILTER_FAILSAFE, 'plain'];
    case 'htmlNameFilter':
      return [/^[a-zA-Z0-9-]+$/.test(text) ? text.toLowerCase() : FILTER_FAILSAFE, 'plain'];
    case 'html':
      return [htmlEscapeString(text), 'plain'];
    case 'urlquery':
      return [queryEscape(text), 'plain'];
  }
}

export class HtmlOutput implements Output {
  private state: State = { kind: 'text' };
  private readonly parts: string[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  result(): string {
    return this.parts.join('');
  }

  private append(text: string): void {
    this.size += text.length;
    if (this.size > this.maxBytes) throw new ExecError(`output larger than ${this.maxBytes} bytes`);
    this.parts.push(text);
  }

  /** The escapers Go's escapeAction inserts at the current context. */
  private escapers(): Escaper[] {
    const state = this.state;
    switch (state.kind) {
      case 'text':
        return ['htmlEscaper'];
      case 'comment':
        return [];
      case 'raw':
        return state.rcdata ? ['rcdataEscaper'] : state.element === 'script' ? ['jsValEscaper'] : ['cssValueFilter'];
      case 'tag':
      case 'attrName':
      case 'afterName':
        return ['htmlNameFilter'];
      case 'beforeValue':
      case 'attr': {
        const attr = state.kind === 'attr' ? state : { type: attrType(state.name), delim: ' ' as Delim, urlPart: 'none' as const };
        const escapers: Escaper[] = [];
        if (attr.type === 'url') {
          if (attr.urlPart === 'none') escapers.push('urlFilter', 'urlNormalizer');
          else if (attr.urlPart === 'pre') escapers.push('urlNormalizer');
          else escapers.push('urlEscaper');
        } else if (attr.type === 'js') escapers.push('jsValEscaper');
        else if (attr.type === 'css') escapers.push('cssValueFilter');
        escapers.push(attr.delim === ' ' ? 'nospaceEscaper' : 'attrEscaper');
        return escapers;
      }
    }
  }

  action(pipe: PipeNode, evaluate: (pipe: PipeNode) => GoValue): void {
    if (this.state.kind === 'comment') return;
    if (this.state.kind === 'beforeValue') this.state = { kind: 'attr', element: this.state.element, type: attrType(this.state.name), delim: ' ', urlPart: 'none' };
    const escapers = this.escapers();
    const [run, used] = withPredefinedEscaper(pipe, escapers);
    let [text, content] = stringify(evaluate(run));
    for (const escaper of used) [text, content] = applyEscaper(escaper, text, content);
    this.append(text);
  }

  text(text: string): void {
    let i = 0;
    while (i < text.length) i = this.step(text, i);
  }

  /** Consumes template text from `i` in the current state; returns where it stopped. */
  private step(text: string, i: number): number {
    const state = this.state;
    switch (state.kind) {
      case 'text': {
        const lt = text.indexOf('<', i);
        if (lt < 0) {
          this.append(text.slice(i));
          return text.length;
        }
        this.append(text.slice(i, lt));
        if (text.startsWith('<!--', lt)) {
          this.state = { kind: 'comment' };
          return lt + 4;
        }
        const tag = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)/.exec(text.slice(lt));
        if (tag === null) {
          this.append('<');
          return lt + 1;
        }
        this.append(tag[0]);
        this.state = { kind: 'tag', element: tag[1] === '/' ? '' : (tag[2] as string).toLowerCase() };
        return lt + tag[0].length;
      }
      case 'comment': {
        const end = text.indexOf('-->', i);
        if (end < 0) return text.length;
        this.state = { kind: 'text' };
        return end + 3;
      }
      case 'raw': {
        const close = text.slice(i).search(new RegExp(`</${state.element}(?=[\\s/>])`, 'i'));
        if (close < 0) {
          this.append(text.slice(i));
          return text.length;
        }
        this.append(text.slice(i, i + close));
        this.state = { kind: 'text' };
        return i + close;
      }
      case 'tag': {
        const c = text[i] as string;
        if (c === '>') {
          this.append(c);
          this.state = RAW_TEXT.has(state.element) || RCDATA.has(state.element) ? { kind: 'raw', element: state.element, rcdata: RCDATA.has(state.element) } : { kind: 'text' };
          return i + 1;
        }
        if (/[\s/]/.test(c)) {
          this.append(c);
          return i + 1;
        }
        this.state = { kind: 'attrName', element: state.element, name: '' };
        return i;
      }
      case 'attrName': {
        const name = /^[^\s=>/]*/.exec(text.slice(i))?.[0] ?? '';
        this.append(name);
        const full = state.name + name;
        const next = i + name.length;
        this.state = next < text.length ? { kind: 'afterName', element: state.element, name: full } : { ...state, name: full };
        return next;
      }
      case 'afterName': {
        const c = text[i] as string;
        if (/\s/.test(c)) {
          this.append(c);
          return i + 1;
        }
        if (c === '=') {
          this.append(c);
          this.state = { kind: 'beforeValue', element: state.element, name: state.name };
          return i + 1;
        }
        this.state = { kind: 'tag', element: state.element };
        return i;
      }
      case 'beforeValue': {
        const c = text[i] as string;
        if (/\s/.test(c)) {
          this.append(c);
          return i + 1;
        }
        const type = attrType(state.name);
        if (c === '"' || c === "'") {
          this.append(c);
          this.state = { kind: 'attr', element: state.element, type, delim: c, urlPart: 'none' };
          return i + 1;
        }
        if (c === '>') {
          this.state = { kind: 'tag', element: state.element };
          return i;
        }
        this.state = { kind: 'attr', element: state.element, type, delim: ' ', urlPart: 'none' };
        return i;
      }
      case 'attr': {
        const end = state.delim === ' ' ? text.slice(i).search(/[\s>]/) : text.indexOf(state.delim, i) - i;
        const value = end < 0 ? text.slice(i) : text.slice(i, i + end);
        this.append(value);
        if (state.type === 'url') {
          if (/[?#]/.test(value)) state.urlPart = 'query';
          else if (value.trim() !== '' && state.urlPart === 'none') state.urlPart = 'pre';
        }
        if (end < 0) return text.length;
        if (state.delim !== ' ') {
          this.append(state.delim);
          this.state = { kind: 'tag', element: state.element };
          return i + end + 1;
        }
        this.state = { kind: 'tag', element: state.element };
        return i + end;
      }
    }
  }
}

function attrType(name: string): AttrType {
  const lower = name.toLowerCase().replace(/^(data-|xmlns:)/, '');
  if (lower.startsWith('on')) return 'js';
  if (lower === 'style') return 'css';
  if (URL_ATTRS.has(lower) || lower.includes('src') || lower.includes('uri') || lower.includes('url')) return 'url';
  return 'normal';
}

const EVAL_ARGS = '_eval_args_';

/**
 * html/template's ensurePipelineContains: a pipeline ending in `html` or `urlquery` whose
 * escaping the context already needs keeps that one escaper in place of the equivalent ones.
 */
function withPredefinedEscaper(pipe: PipeNode, escapers: Escaper[]): [PipeNode, Escaper[]] {
  const last = pipe.cmds[pipe.cmds.length - 1] as CommandNode;
  const head = last.args[0];
  if (head?.kind !== 'identifier' || (head.name !== 'html' && head.name !== 'urlquery')) return [pipe, escapers];
  const predefined = head.name;
  let cmds = pipe.cmds;
  if (cmds.length === 1 && last.args.length > 1) {
    // `{{html a b}}` runs as `{{_eval_args_ a b | html}}`, so that html can merge.
    cmds = [{ ...last, args: [{ kind: 'identifier', pos: head.pos, name: EVAL_ARGS }, ...last.args.slice(1)] }, { kind: 'command', pos: head.pos, args: [head] }];
  }
  let dup = false;
  const used = escapers.map((escaper) => {
    if (EQUIVALENT[escaper] !== predefined) return escaper;
    dup = true;
    return predefined;
  });
  if (!dup) return [{ ...pipe, cmds }, escapers];
  return [{ ...pipe, cmds: cmds.slice(0, -1) }, used];
}

/** The function html/template's rewrite calls: its arguments as one string. */
export const evalArgsFunction = { name: EVAL_ARGS, fn: { params: ['any'], variadic: true, call: (args: readonly GoValue[]) => argsText(args) } };
