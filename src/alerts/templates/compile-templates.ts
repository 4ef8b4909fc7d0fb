import { LRUCache } from 'lru-cache';
import type { TemplateData } from './data.js';
import { dataValue } from './engine/alert-data.js';
import { alertmanagerFunctions } from './engine/alertmanager-functions.js';
import { BUILTINS } from './engine/builtins.js';
import { DEFAULT_TEMPLATE_FILES } from './engine/default-templates.js';
import { Executor, TemplateExecError, type Output } from './engine/exec.js';
import { evalArgsFunction, HtmlOutput } from './engine/html-output.js';
import { isEmptyTree, parseTemplate, TemplateParseError, type Tree } from './engine/parser.js';
import { TextOutput } from './engine/text-output.js';
import type { GoFunction } from './engine/values.js';
import type { Rendered, Templates } from './templates.js';

/** Nested `{{ template }}` calls one execution may make (Go allows 100,000; a JS stack does not). */
export const MAX_TEMPLATE_DEPTH = 1000;
/** Nodes walked and functions called in one execution: a recursive template cannot run for ever. */
export const MAX_TEMPLATE_STEPS = 1_000_000;
/** What one execution may write. */
export const MAX_TEMPLATE_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Parsed per-call texts (a receiver's `title:`, `text:`...) kept for reuse. */
export const PARSED_TEXT_CACHE_ENTRIES = 1000;

export interface TemplateFile {
  /** The file's base name, as Go names the template and its errors (`custom.tmpl`). */
  name: string;
  text: string;
}

export type CompiledTemplates = { ok: true; value: Templates } | { ok: false; error: string };

export interface CompileOptions {
  /** The clock `since` reads; Date.now by default. */
  now?: () => number;
}

/** `and` and `or` are run by the executor itself; the rest are functions. */
const CONTROL_FUNCTIONS = new Set(['and', 'or']);

type ParsedText = { ok: true; trees: ReadonlyMap<string, Tree> } | { ok: false; error: string };

/** Per-call texts parsed once: they are the same few strings of the configuration, notification after notification. */
const parsedTexts = new LRUCache<string, ParsedText>({ max: PARSED_TEXT_CACHE_ENTRIES });

/** Alertmanager's DefaultFuncs names and Go's builtins: what a template may call. */
const FUNCTIONS: Readonly<Record<string, GoFunction>> = { ...BUILTINS, ...alertmanagerFunctions(Date.now) };
const hasFunction = (name: string): boolean => CONTROL_FUNCTIONS.has(name) || name in FUNCTIONS;

/**
 * Go's template set after Alertmanager's FromGlobs: the defaults, then `files` in order. A later
 * definition of a name replaces an earlier one, except that an empty one never replaces a
 * non-empty one (text/template's associate).
 */
function addTrees(set: Map<string, Tree>, trees: readonly Tree[]): void {
  for (const tree of trees) {
    const old = set.get(tree.name);
    if (old !== undefined && isEmptyTree(tree.root)) continue;
    set.set(tree.name, tree);
  }
}

function parseInto(set: Map<string, Tree>, name: string, text: string): string | undefined {
  try {
    addTrees(set, parseTemplate(name, text, hasFunction));
    return undefined;
  } catch (error) {
    if (error instanceof TemplateParseError) return error.message;
    throw error;
  }
}

/** The defaults, parsed once for every configuration. */
const defaultSet = (() => {
  const set = new Map<string, Tree>();
  // Alertmanager parses its defaults into the unnamed template, so their errors name "".
  for (const file of DEFAULT_TEMPLATE_FILES) {
    const error = parseInto(set, '', file.text);
    if (error !== undefined) throw new Error(`default template ${file.name}: ${error}`);
  }
  return set;
})();

/**
 * Alertmanager's notification templates: its defaults and `files` (Go text/template syntax),
 * parsed once. Parse errors name the file and line as Go does.
 */
export function compileTemplates(files: readonly TemplateFile[], options: CompileOptions = {}): CompiledTemplates {
  const set = new Map(defaultSet);
  for (const file of files) {
    const error = parseInto(set, file.name, file.text);
    if (error !== undefined) return { ok: false, error };
  }
  const functions: Record<string, GoFunction> = { ...FUNCTIONS, [evalArgsFunction.name]: evalArgsFunction.fn };
  if (options.now !== undefined) Object.assign(functions, { since: alertmanagerFunctions(options.now)['since'] });
  return { ok: true, value: new TemplateSet(set, functions) };
}

class TemplateSet implements Templates {
  constructor(
    private readonly set: ReadonlyMap<string, Tree>,
    private readonly functions: Readonly<Record<string, GoFunction>>,
  ) {}

  text(text: string, data: TemplateData): Rendered {
    const output = new TextOutput(MAX_TEMPLATE_OUTPUT_BYTES);
    return this.execute(text, data, output, () => output.result());
  }

  html(text: string, data: TemplateData): Rendered {
    const output = new HtmlOutput(MAX_TEMPLATE_OUTPUT_BYTES);
    return this.execute(text, data, output, () => output.result());
  }

  /** Alertmanager's ExecuteTextString / ExecuteHTMLString: `text` parsed as the unnamed template over this set. */
  private execute(text: string, data: TemplateData, output: Output, result: () => string): Rendered {
    if (text === '') return { ok: true, value: '' };
    let parsed = parsedTexts.get(text);
    if (parsed === undefined) {
      const trees = new Map<string, Tree>();
      const error = parseInto(trees, '', text);
      parsed = error === undefined ? { ok: true, trees } : { ok: false, error };
      parsedTexts.set(text, parsed);
    }
    if (!parsed.ok) return parsed;
    const own = parsed.trees;
    const start = own.get('');
    if (start === undefined) return { ok: false, error: 'template: "" is an incomplete or empty template' };
    const lookup = (name: string) => own.get(name) ?? this.set.get(name);
    const executor = new Executor(lookup, (name) => this.functions[name], output, { maxDepth: MAX_TEMPLATE_DEPTH, maxSteps: MAX_TEMPLATE_STEPS }, start);
    try {
      executor.run(dataValue(data));
    } catch (error) {
      if (error instanceof TemplateExecError) return { ok: false, error: error.message };
      throw error;
    }
    return { ok: true, value: result() };
  }
}
