import { Composer, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, Scalar, type CST, type Document } from 'yaml';
import { formatGoScalar, resolvePlain, type ResolvedScalar, type ScalarValue } from './yaml-scalar.js';
import { syntaxErrorText } from './yaml-syntax-error.js';

/**
 * One YAML document as the tree upstream's yaml.v2 decodes: scalars carry their Go-resolved
 * value (upstream's config checks depend on it), every node its 1-based line (yaml.v2 puts it in
 * unmarshal errors), aliases are expanded and `<<` merge keys inlined.
 */
export type YamlNode = YamlScalar | YamlMap | YamlSeq;

export interface YamlScalar {
  kind: 'scalar';
  line: number;
  /** Short tag for messages: `!!str`, `!!int`, ... or a custom tag as written. */
  tag: string;
  /** The scalar's text (what yaml.v2 stores into a Go string field). */
  text: string;
  value: ScalarValue;
}

export interface YamlMap {
  kind: 'map';
  line: number;
  entries: Array<{ key: YamlNode; value: YamlNode }>;
}

export interface YamlSeq {
  kind: 'seq';
  line: number;
  items: YamlNode[];
}

/** `root` is null for an empty document (only comments, or nothing). */
export type YamlParseResult = { ok: true; root: YamlNode | null } | { ok: false; error: string };

/** A failure while building the tree; caught in parseYaml and returned as a value. */
class YamlTreeError extends Error {}

/**
 * Most nodes one document may hold once built (merge keys copy entries, so a small file can ask
 * for many). A rules file of 200,000 descriptors holds about 2 million.
 */
export const MAX_YAML_NODES = 20_000_000;
/**
 * Deepest nesting accepted; rules nest a few levels. The `yaml` package builds a document by
 * recursing once per level, and on a thread's default stack runs out of it at about 800 levels.
 */
export const MAX_YAML_DEPTH = 500;

/**
 * yaml.v2's guard against alias bombs ("billion laughs"), with its numbers: the share of decoded
 * nodes that may come from expanding aliases falls from 99% for documents up to 400,000 decoded
 * nodes to 10% from 4,000,000 on; past it the document is refused with yaml.v2's message. The
 * tree here shares an aliased node instead of copying it, but every check after parsing walks it
 * expanded, so the expanded count is what must stay bounded.
 */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

function excessiveAliasing(decodeCount: number, aliasCount: number): boolean {
  return aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount);
}

/**
 * Parses the first document of `text` (yaml.v2's Unmarshal reads only the first one).
 * Errors read `yaml: ...`, like yaml.v2's. `maxNodes` is MAX_YAML_NODES but in tests, where
 * building 20 million nodes to reach it takes seconds.
 */
export function parseYaml(text: string, maxNodes = MAX_YAML_NODES): YamlParseResult {
  const lineCounter = new LineCounter();
  const tokens = firstDocumentTokens(text, lineCounter);
  // Measured before the `yaml` package recurses into it: a thread that runs out of stack there
  // may be aborted by V8 on a later parse ("RegExpCompiler Allocation failed"), ending the process.
  if (tokens.some((token) => nestsDeeperThan(token, MAX_YAML_DEPTH))) {
    return { ok: false, error: `yaml: document nests more than ${MAX_YAML_DEPTH} levels` };
  }
  // failsafe: every scalar stays a string; resolvePlain types them with yaml.v2's rules.
  // uniqueKeys off: yaml.v2 lets a later duplicate key overwrite an earlier one.
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false });
  const doc = Array.from(composer.compose(tokens))[0];
  const syntaxError = doc === undefined ? composer.streamInfo().errors[0] : doc.errors[0];
  if (syntaxError !== undefined) return { ok: false, error: syntaxErrorText(syntaxError, text, lineCounter) };
  if (doc === undefined) return { ok: true, root: null };
  try {
    const builder = new TreeBuilder(doc, lineCounter, maxNodes);
    const root = builder.build(doc.contents, 1);
    if (excessiveAliasing(builder.expandedSize(root), builder.aliasExpansions)) {
      return { ok: false, error: 'yaml: document contains excessive aliasing' };
    }
    const isNull = root.kind === 'scalar' && root.value === null;
    return { ok: true, root: isNull ? null : root };
  } catch (error) {
    if (error instanceof YamlTreeError) return { ok: false, error: `yaml: ${error.message}` };
    throw error;
  }
}

/** The `yaml` package's syntax tokens of `text` up to the end of its first document. */
function firstDocumentTokens(text: string, lines: LineCounter): CST.Token[] {
  const tokens: CST.Token[] = [];
  let documents = 0;
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type === 'document' && ++documents > 1) break;
    tokens.push(token);
  }
  return tokens;
}

/** Whether collections nest in `token` more than `limit` deep; walked without recursion, which is its point. */
function nestsDeeperThan(token: CST.Token, limit: number): boolean {
  const pending: Array<{ token: CST.Token | null | undefined; depth: number }> = [{ token, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const node = next.token;
    if (node === null || node === undefined) continue;
    if (node.type === 'document') pending.push({ token: node.value, depth: next.depth });
    if (node.type !== 'block-map' && node.type !== 'block-seq' && node.type !== 'flow-collection') continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const item of node.items) pending.push({ token: item.key, depth }, { token: item.value, depth });
  }
  return false;
}

const CORE_TAG_PREFIX = 'tag:yaml.org,2002:';

class TreeBuilder {
  /** Aliased nodes are converted once; `expanding` catches an anchor that contains itself. */
  private readonly converted = new Map<unknown, YamlNode>();
  private readonly expanding = new Set<unknown>();
  /** Nodes and entries built so far, merged copies included. */
  private built = 0;
  /** Nodes an expanded walk of the tree meets through aliases (a float: it may be astronomic). */
  aliasExpansions = 0;
  /** Memo of expandedSize for nodes reached more than once. */
  private readonly sizes = new Map<YamlNode, number>();
  private depth = 0;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly maxNodes: number,
  ) {}

  /** `fallbackLine` is used for absent nodes (`key:` with nothing after it). */
  build(node: unknown, fallbackLine: number): YamlNode {
    if (++this.depth > MAX_YAML_DEPTH) throw new YamlTreeError(`document nests more than ${MAX_YAML_DEPTH} levels`);
    try {
      return this.buildNode(node, fallbackLine);
    } finally {
      this.depth--;
    }
  }

  private buildNode(node: unknown, fallbackLine: number): YamlNode {
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (target === undefined) throw new YamlTreeError(`unknown anchor '${node.source}' referenced`);
      if (this.expanding.has(target)) throw new YamlTreeError(`anchor '${node.source}' value contains itself`);
      const cached = this.converted.get(target);
      const result = cached ?? this.buildAnchored(target, fallbackLine);
      // An alias met while an anchor's node is built for another alias is already in that one's size.
      if (this.expanding.size === 0) this.aliasExpansions += this.expandedSize(result);
      return result;
    }
    this.count(1);
    const line = this.lineOf(node) ?? fallbackLine;
    if (isMap(node)) {
      const entries: YamlMap['entries'] = [];
      for (const pair of node.items) {
        const key = this.build(pair.key, line);
        const value = this.build(pair.value, key.line);
        if (key.kind !== 'scalar') {
          throw new YamlTreeError(`invalid map key: ${describe(key)}`);
        }
        if (isMergeKey(pair.key, key)) {
          const merged = mergedEntries(value);
          this.count(merged.length);
          for (const entry of merged) entries.push(entry);
        } else {
          entries.push({ key, value });
        }
      }
      return { kind: 'map', line, entries };
    }
    if (isSeq(node)) {
      return { kind: 'seq', line, items: node.items.map((item) => this.build(item, line)) };
    }
    if (isScalar(node)) return scalarNode(node, line);
    return { kind: 'scalar', line, tag: '!!null', text: '', value: null };
  }

  private buildAnchored(target: unknown, fallbackLine: number): YamlNode {
    this.expanding.add(target);
    const result = this.build(target, fallbackLine);
    this.expanding.delete(target);
    this.converted.set(target, result);
    return result;
  }

  private count(nodes: number): void {
    this.built += nodes;
    if (this.built > this.maxNodes) throw new YamlTreeError(`document has more than ${this.maxNodes} nodes`);
  }

  /** Nodes in `node` with every shared (aliased) node counted each time it is reached. */
  expandedSize(node: YamlNode): number {
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    let size = 1;
    if (node.kind === 'map') for (const entry of node.entries) size += this.expandedSize(entry.key) + this.expandedSize(entry.value);
    else if (node.kind === 'seq') for (const item of node.items) size += this.expandedSize(item);
    if (node.kind !== 'scalar') this.sizes.set(node, size);
    return size;
  }

  private lineOf(node: unknown): number | undefined {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    return range ? this.lines.linePos(range[0]).line : undefined;
  }
}

function scalarNode(node: Scalar, line: number): YamlScalar {
  // A `!!merge` tag makes the `yaml` package hold a symbol; the text is what was written.
  const text = typeof node.value === 'symbol' ? (node.source ?? '') : String(node.value ?? '');
  // The non-specific tag `!` is a tag like any other to yaml.v2: its scalar is not resolved.
  const tag = node.tag === undefined ? undefined : shortTag(node.tag);
  let resolved: ResolvedScalar;
  if (tag === undefined) {
    resolved = node.type === Scalar.PLAIN ? resolvePlain(text) : { tag: '!!str', value: text };
  } else {
    resolved = resolveTagged(tag, text);
  }
  return { kind: 'scalar', line, tag: resolved.tag, text, value: resolved.value };
}

/** An explicit core tag must agree with the text, as yaml.v2 requires (ints may become floats). */
function resolveTagged(tag: string, text: string): ResolvedScalar {
  if (!['!!int', '!!float', '!!bool', '!!null'].includes(tag)) return { tag, value: text };
  const resolved = resolvePlain(text);
  if (resolved.tag === tag) return resolved;
  if (tag === '!!float' && typeof resolved.value === 'bigint') return { tag, value: Number(resolved.value) };
  throw new YamlTreeError(`cannot decode ${resolved.tag} \`${text}\` as a ${tag}`);
}

function shortTag(tag: string): string {
  return tag.startsWith(CORE_TAG_PREFIX) ? '!!' + tag.slice(CORE_TAG_PREFIX.length) : tag;
}

/** yaml.v2 merges at a `<<` key written plain and untagged, or tagged `!!merge`. */
function isMergeKey(source: unknown, key: YamlScalar): boolean {
  if (key.text !== '<<') return false;
  return (isScalar(source) && source.type === Scalar.PLAIN && source.tag === undefined) || key.tag === '!!merge';
}

/** yaml.v2 merges a map, or a list of maps where earlier maps win (so they go last). */
function mergedEntries(value: YamlNode): YamlMap['entries'] {
  if (value.kind === 'map') return value.entries;
  if (value.kind === 'seq' && value.items.every((item) => item.kind === 'map')) {
    const entries: YamlMap['entries'] = [];
    for (let i = value.items.length - 1; i >= 0; i--) for (const entry of (value.items[i] as YamlMap).entries) entries.push(entry);
    return entries;
  }
  throw new YamlTreeError('map merge requires map or sequence of maps as the value');
}

/**
 * Go's `%v` text of a decoded node (maps print with sorted keys, as fmt does), cut off with one
 * `...` after about `budget` nodes: error messages quote client input, which may be large.
 */
export function describe(node: YamlNode, budget = { left: 200 }): string {
  budget.left--;
  switch (node.kind) {
    case 'scalar':
      return formatGoScalar(node.value);
    case 'seq':
      return `[${whileBudgetLasts(node.items, budget, (item) => describe(item, budget)).join(' ')}]`;
    case 'map':
      return `map[${whileBudgetLasts(node.entries, budget, (e) => `${describe(e.key, budget)}:${describe(e.value, budget)}`, true).join(' ')}]`;
  }
}

/** `show` of each item until the budget is spent, then one `...` for the rest (after the others, sorted if asked). */
function whileBudgetLasts<T>(items: readonly T[], budget: { left: number }, show: (item: T) => string, sorted = false): string[] {
  const shown: string[] = [];
  let index = 0;
  for (; index < items.length && budget.left > 0; index++) shown.push(show(items[index] as T));
  if (sorted) shown.sort();
  if (index < items.length) shown.push('...');
  return shown;
}
