/**
 * Go text/template's parser (text/template/parse/parse.go) for the subset this service runs.
 * Errors carry Go's words (`template: x.tmpl:3: function "foo" not defined`); a construct Go
 * has and this engine does not is refused by name (`unsupported construct "call"`).
 */
import { goUnquote } from '../../matchers/index.js';
import { KEYWORDS, lex, type Item } from './lexer.js';
import type { ArgNode, CommandNode, ListNode, Node, NumberNode, PipeNode, TemplateNode, VariableNode } from './nodes.js';

/** One named template: a file's top level, or a `define` / `block` inside one. */
export interface Tree {
  name: string;
  /** The file (or per-call text) it was parsed from, as errors name it. */
  parseName: string;
  /** The whole text it was parsed from, to turn positions into lines and columns. */
  text: string;
  root: ListNode;
}

export class TemplateParseError extends Error {}

/** Go builtins this engine does not run: naming them is a load error, not "not defined". */
const UNSUPPORTED_FUNCTIONS = new Set(['call']);

/**
 * Parses `text` (named `name`) into its trees: `name` itself first, then each `define` / `block`.
 * `hasFunction` says which function names exist. Throws TemplateParseError with Go's text.
 */
export function parseTemplate(name: string, text: string, hasFunction: (name: string) => boolean): Tree[] {
  return new Parser(name, text, hasFunction).parse();
}

class Parser {
  private readonly items: Item[];
  private index = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private readonly trees: Tree[] = [];
  /** The line of the action being parsed, as Go's actionLine (0 outside one). */
  private actionLine = 0;
  private lastLine = 1;

  constructor(
    private readonly name: string,
    private readonly text: string,
    private readonly hasFunction: (name: string) => boolean,
  ) {
    this.items = lex(text);
  }

  parse(): Tree[] {
    const root = this.list(0);
    for (;;) {
      const item = this.peek();
      if (item.type === 'eof') break;
      if (item.type === 'leftDelim' && this.defineFollows()) {
        this.next();
        this.nextNonSpace();
        this.definition();
        continue;
      }
      const node = this.textOrAction();
      if (node.kind === 'end' || node.kind === 'else') this.fail(`unexpected ${node.kind === 'end' ? '{{end}}' : '{{else}}'}`);
      root.nodes.push(node as Node);
    }
    this.add({ name: this.name, parseName: this.name, text: this.text, root });
    return this.trees;
  }

  // ---- items ----

  /** Whether the `{{` at the current item opens a `define`. */
  private defineFollows(): boolean {
    let i = this.index + 1;
    while (this.items[i]?.type === 'space') i++;
    const item = this.items[i];
    return item?.type === 'keyword' && item.value === 'define';
  }

  private next(): Item {
    const item = this.items[this.index] ?? this.items[this.items.length - 1];
    if (item === undefined) throw new TemplateParseError(`template: ${this.name}:1: unexpected EOF`);
    this.index = Math.min(this.index + 1, this.items.length);
    this.lastLine = item.line;
    return item;
  }

  private peek(): Item {
    const item = this.next();
    this.index--;
    return item;
  }

  private nextNonSpace(): Item {
    let item = this.next();
    while (item.type === 'space') item = this.next();
    return item;
  }

  private peekNonSpace(): Item {
    const item = this.nextNonSpace();
    this.index--;
    return item;
  }

  private fail(message: string): never {
    throw new TemplateParseError(`template: ${this.name}:${this.lastLine}: ${message}`);
  }

  private unexpected(item: Item, context: string): never {
    if (item.type === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== item.line) {
        extra = ` in ${context}`;
        if (item.value.endsWith(' action')) extra = extra.slice(' in '.length);
      }
      this.fail(`${item.value}${extra}`);
    }
    this.fail(`unexpected ${itemString(item)} in ${context}`);
  }

  private expect(type: Item['type'], context: string): Item {
    const item = this.nextNonSpace();
    if (item.type !== type) this.unexpected(item, context);
    return item;
  }

  private list(pos: number): ListNode {
    return { kind: 'list', pos, nodes: [] };
  }

  private add(tree: Tree): void {
    const existing = this.trees.findIndex((t) => t.name === tree.name);
    if (existing < 0) {
      this.trees.push(tree);
      return;
    }
    const old = this.trees[existing] as Tree;
    if (!isEmptyTree(old.root)) {
      if (!isEmptyTree(tree.root)) this.fail(`template: multiple definition of template "${tree.name}"`);
      return;
    }
    this.trees[existing] = tree;
  }

  // ---- structure ----

  private definition(): void {
    const context = 'define clause';
    const name = this.templateName(this.nextNonSpace(), context);
    this.expect('rightDelim', context);
    this.namedBody(name, context);
  }

  /** The body of a `define` or `block` up to its `{{end}}`, as a tree of its own with its own variables. */
  private namedBody(name: string, context: string): void {
    const savedVars = this.vars;
    this.vars = ['$'];
    const [root, end] = this.itemList();
    this.vars = savedVars;
    if (end.kind !== 'end') this.fail(`unexpected {{else}} in ${context}`);
    this.add({ name, parseName: this.name, text: this.text, root });
  }

  private textOrAction(): Node | { kind: 'end' | 'else'; pos: number } {
    const item = this.nextNonSpace();
    if (item.type === 'text') return { kind: 'text', pos: item.pos, text: item.value };
    if (item.type === 'leftDelim') {
      this.actionLine = item.line;
      try {
        return this.action();
      } finally {
        this.actionLine = 0;
      }
    }
    this.unexpected(item, 'input');
  }

  /** Nodes up to `{{end}}` or `{{else}}`, and which of the two ended them. */
  private itemList(): [ListNode, { kind: 'end' | 'else'; pos: number }] {
    const list = this.list(this.peekNonSpace().pos);
    for (;;) {
      if (this.peekNonSpace().type === 'eof') this.fail('unexpected EOF');
      const node = this.textOrAction();
      if (node.kind === 'end' || node.kind === 'else') return [list, node as { kind: 'end' | 'else'; pos: number }];
      list.nodes.push(node as Node);
    }
  }

  private action(): Node | { kind: 'end' | 'else'; pos: number } {
    const token = this.nextNonSpace();
    if (token.type === 'keyword') {
      switch (token.value) {
        case 'block':
          return this.blockControl(token);
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) this.fail(`{{${token.value}}} outside {{range}}`);
          this.expect('rightDelim', token.value);
          return { kind: token.value, pos: token.pos };
        case 'else':
          return this.elseControl(token);
        case 'end':
          this.expect('rightDelim', 'end');
          return { kind: 'end', pos: token.pos };
        case 'if':
        case 'range':
        case 'with':
          return this.control(token.value, token.pos);
        case 'template':
          return this.templateControl(token);
        case 'define':
          this.fail('unexpected <define> in command');
      }
    }
    this.index--;
    const pipe = this.pipeline('command', 'rightDelim');
    return { kind: 'action', pos: pipe.pos, pipe };
  }

  private elseControl(token: Item): { kind: 'else'; pos: number } {
    const peek = this.peekNonSpace();
    if (peek.type === 'keyword' && (peek.value === 'if' || peek.value === 'with')) return { kind: 'else', pos: token.pos };
    this.expect('rightDelim', 'else');
    return { kind: 'else', pos: token.pos };
  }

  private control(kind: 'if' | 'range' | 'with', pos: number): Node {
    const savedVars = this.vars.length;
    const pipe = this.pipeline(kind, 'rightDelim');
    if (kind === 'range') this.rangeDepth++;
    const [list, next] = this.itemList();
    if (kind === 'range') this.rangeDepth--;
    let elseList: ListNode | undefined;
    if (next.kind === 'else') {
      const peek = this.peek();
      if ((kind === 'if' || kind === 'with') && peek.type === 'keyword' && peek.value === kind) {
        // `{{else if x}}` is `{{else}}{{if x}}...{{end}}`, sharing the one `{{end}}`.
        const keyword = this.next();
        elseList = this.list(next.pos);
        elseList.nodes.push(this.control(kind, keyword.pos));
      } else {
        const [rest, end] = this.itemList();
        if (end.kind !== 'end') this.fail('expected end; found {{else}}');
        elseList = rest;
      }
    }
    this.vars.length = savedVars;
    return { kind, pos, pipe, list, elseList };
  }

  private templateName(item: Item, context: string): string {
    if (item.type !== 'string' && item.type !== 'rawString') this.unexpected(item, context);
    return this.unquote(item);
  }

  private templateControl(token: Item): TemplateNode {
    const context = 'template clause';
    const name = this.templateName(this.nextNonSpace(), context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.index--;
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { kind: 'template', pos: token.pos, name, pipe };
  }

  private blockControl(token: Item): TemplateNode {
    const context = 'block clause';
    const name = this.templateName(this.nextNonSpace(), context);
    const pipe = this.pipeline(context, 'rightDelim');
    this.namedBody(name, context);
    return { kind: 'template', pos: token.pos, name, pipe };
  }

  // ---- pipelines ----

  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const start = this.peekNonSpace();
    const pipe: PipeNode = { kind: 'pipe', pos: start.pos, isAssign: false, decl: [], cmds: [] };
    this.declarations(pipe, context);
    for (;;) {
      const token = this.nextNonSpace();
      if (token.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (token.type) {
        case 'bool':
        case 'char':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.index--;
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private declarations(pipe: PipeNode, context: string): void {
    const first = this.peekNonSpace();
    if (first.type !== 'variable') return;
    const mark = this.index;
    this.next();
    const after = this.peekNonSpace();
    if (after.type === 'declare' || after.type === 'assign') {
      this.nextNonSpace();
      pipe.isAssign = after.type === 'assign';
      pipe.decl.push(this.variableNode(first, pipe.isAssign));
      return;
    }
    if (after.type === 'comma') {
      this.nextNonSpace();
      if (context !== 'range') this.fail(`too many declarations in ${context}`);
      const second = this.nextNonSpace();
      const op = this.nextNonSpace();
      if (second.type !== 'variable' || (op.type !== 'declare' && op.type !== 'assign')) this.fail('range can only initialize variables');
      pipe.isAssign = op.type === 'assign';
      pipe.decl.push(this.variableNode(first, pipe.isAssign), this.variableNode(second, pipe.isAssign));
      return;
    }
    this.index = mark;
  }

  private variableNode(item: Item, isAssign: boolean): VariableNode {
    if (isAssign) return this.useVar(item);
    this.vars.push(item.value);
    return { kind: 'variable', pos: item.pos, ident: [item.value] };
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.fail(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((cmd, i) => {
      const first = cmd.args[0];
      if (first !== undefined && ['bool', 'dot', 'nil', 'number', 'string'].includes(first.kind)) this.fail(`non executable command in pipeline stage ${i + 2}`);
    });
  }

  private command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== undefined) cmd.args.push(operand);
      const token = this.next();
      if (token.type === 'space') continue;
      if (token.type === 'rightDelim' || token.type === 'rightParen') this.index--;
      else if (token.type !== 'pipe') this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.fail('empty command');
    return cmd;
  }

  private operand(): ArgNode | undefined {
    const node = this.term();
    if (node === undefined) return undefined;
    if (this.peek().type !== 'field') return node;
    const fields: string[] = [];
    while (this.peek().type === 'field') fields.push(this.next().value.slice(1));
    switch (node.kind) {
      case 'field':
        return { kind: 'field', pos: node.pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { kind: 'variable', pos: node.pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.fail(`unexpected . after term "${nodeText(node)}"`);
      // falls through: fail never returns
      default:
        return { kind: 'chain', pos: node.pos, node, field: fields };
    }
  }

  private term(): ArgNode | undefined {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'identifier':
        if (UNSUPPORTED_FUNCTIONS.has(token.value)) this.fail(`unsupported construct "${token.value}"`);
        if (!this.hasFunction(token.value)) this.fail(`function "${token.value}" not defined`);
        return { kind: 'identifier', pos: token.pos, name: token.value };
      case 'dot':
        return { kind: 'dot', pos: token.pos };
      case 'nil':
        return { kind: 'nil', pos: token.pos };
      case 'variable':
        return this.useVar(token);
      case 'field':
        return { kind: 'field', pos: token.pos, ident: [token.value.slice(1)] };
      case 'bool':
        return { kind: 'bool', pos: token.pos, value: token.value === 'true' };
      case 'char':
      case 'number':
        return this.number(token);
      case 'leftParen':
        return this.pipeline('parenthesized pipeline', 'rightParen');
      case 'string':
      case 'rawString':
        return { kind: 'string', pos: token.pos, quoted: token.value, text: this.unquote(token) };
      default:
        this.index--;
        return undefined;
    }
  }

  private useVar(item: Item): VariableNode {
    const ident = item.value.split('.');
    if (!this.vars.includes(ident[0] as string)) this.fail(`undefined variable "${ident[0]}"`);
    return { kind: 'variable', pos: item.pos, ident };
  }

  private number(item: Item): NumberNode {
    const text = item.value;
    if (item.type === 'char') {
      const rune = charValue(text);
      if (rune === undefined) this.fail(`malformed character constant: ${text}`);
      return { kind: 'number', pos: item.pos, text, int: rune, float: rune };
    }
    if (text.endsWith('i')) this.fail('unsupported construct "complex number"');
    const value = goNumber(text);
    if (value === undefined) this.fail(`illegal number syntax: "${text}"`);
    const int = Number.isInteger(value) && Number.isSafeInteger(value) ? value : undefined;
    return { kind: 'number', pos: item.pos, text, int, float: value };
  }

  private unquote(item: Item): string {
    if (item.type === 'rawString') return item.value.slice(1, -1);
    const text = goUnquote(item.value);
    if (text === undefined) this.fail(`invalid syntax`);
    return text;
  }
}

export function isEmptyTree(list: ListNode): boolean {
  return list.nodes.every((node) => node.kind === 'text' && node.text.trim() === '');
}

function nodeText(node: ArgNode): string {
  switch (node.kind) {
    case 'string':
      return node.quoted;
    case 'number':
      return node.text;
    case 'bool':
      return String(node.value);
    case 'nil':
      return 'nil';
    default:
      return '.';
  }
}

/** Go's item.String(): what parse errors quote. */
function itemString(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'keyword' && KEYWORDS.has(item.value)) return `<${item.value}>`;
  if (item.type === 'space') return `"${item.value.replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r')}"`;
  if (item.value.length > 10) return `"${item.value.slice(0, 10)}"...`;
  return `"${item.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A Go numeric literal's value (underscores, hex, octal, binary, floats); undefined if malformed. */
export function goNumber(text: string): number | undefined {
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[+-]/, '');
  if (/_$|^_|__/.test(body)) return undefined;
  const clean = body.replace(/_/g, '');
  let value: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(clean)) value = parseInt(clean.slice(2), 16);
  else if (/^0[bB][01]+$/.test(clean)) value = parseInt(clean.slice(2), 2);
  else if (/^0[oO][0-7]+$/.test(clean)) value = parseInt(clean.slice(2), 8);
  else if (/^0[0-7]+$/.test(clean)) value = parseInt(clean.slice(1), 8);
  else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean)) value = Number(clean);
  else return undefined;
  return sign * value;
}

function charValue(text: string): number | undefined {
  const body = text.slice(1, -1);
  if (body.startsWith('\\')) {
    const decoded = goUnquote(`"${body === "\\'" ? "'" : body}"`);
    return decoded === undefined || [...decoded].length !== 1 ? undefined : decoded.codePointAt(0);
  }
  return [...body].length === 1 ? body.codePointAt(0) : undefined;
}
