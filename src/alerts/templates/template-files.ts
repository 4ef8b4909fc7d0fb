import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, sep } from 'node:path';
import { compileTemplates, type CompiledTemplates, type TemplateFile } from './compile-templates.js';

/** Template files one configuration may load, all globs together. */
export const MAX_TEMPLATE_FILES = 1000;
/** Bytes of template files one configuration may load, all files together. */
export const MAX_TEMPLATE_BYTES = 16 * 1024 * 1024;

const PATTERN_ERROR = 'syntax error in pattern';

/** Go's filepath.Match for one path element: `*`, `?`, `[...]` / `[^...]` with ranges, `\` escapes. */
function elementRegex(pattern: string): RegExp | undefined {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\') {
      const next = pattern[++i];
      if (next === undefined) return undefined;
      out += escapeRegex(next);
    } else if (c === '[') {
      const close = classEnd(pattern, i);
      if (close < 0) return undefined;
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith('^');
      if (negated) body = body.slice(1);
      if (body === '') return undefined;
      out += `[${negated ? '^' : ''}${body.replace(/\\(.)/g, (_m, x: string) => escapeRegex(x)).replace(/[\]^]/g, '\\$&')}]`;
      i = close;
    } else out += escapeRegex(c);
  }
  try {
    return new RegExp(out + '$', 'u');
  } catch {
    return undefined;
  }
}

function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > open + 1) return i;
  }
  return -1;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const hasMeta = (element: string) => /[*?[\\]/.test(element);

/**
 * Go's filepath.Glob: the files matching `pattern`, sorted per directory; nothing for no match
 * (not an error); `syntax error in pattern` for a malformed one.
 */
export function glob(pattern: string): { ok: true; paths: string[] } | { ok: false; error: string } {
  const elements = pattern.split(sep);
  let paths = [elements[0] === '' ? sep : ''];
  for (const [index, element] of elements.entries()) {
    if (index === 0 && element === '') continue;
    const next: string[] = [];
    if (!hasMeta(element)) {
      for (const path of paths) next.push(path === '' ? element : join(path, element));
    } else {
      const regex = elementRegex(element);
      if (regex === undefined) return { ok: false, error: PATTERN_ERROR };
      for (const path of paths) {
        let names: string[];
        try {
          names = readdirSync(path === '' ? '.' : path);
        } catch {
          continue;
        }
        for (const name of names.sort()) if (regex.test(name)) next.push(path === '' ? name : join(path, name));
      }
    }
    paths = next;
  }
  return { ok: true, paths: paths.filter((path) => statSync(path, { throwIfNoEntry: false }) !== undefined) };
}

/**
 * A configuration's `templates:` as Alertmanager's FromGlobs reads them: each glob relative to
 * `baseDir` (the configuration file's directory), its files parsed in order after the defaults.
 * Errors read as Alertmanager's: `failed to parse templates: template: x.tmpl:3: ...`.
 */
export function loadTemplateFiles(globs: readonly string[], baseDir: string): CompiledTemplates {
  const files: TemplateFile[] = [];
  let bytes = 0;
  for (const pattern of globs) {
    const found = glob(isAbsolute(pattern) ? pattern : join(baseDir, pattern));
    if (!found.ok) return { ok: false, error: `failed to parse templates: ${found.error}` };
    for (const path of found.paths) {
      if (files.length >= MAX_TEMPLATE_FILES) return { ok: false, error: `failed to parse templates: more than ${MAX_TEMPLATE_FILES} template files` };
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        return { ok: false, error: `failed to parse templates: ${(error as Error).message}` };
      }
      bytes += Buffer.byteLength(text);
      if (bytes > MAX_TEMPLATE_BYTES) return { ok: false, error: `failed to parse templates: template files larger than ${MAX_TEMPLATE_BYTES} bytes together` };
      files.push({ name: basename(path), text });
    }
  }
  const compiled = compileTemplates(files);
  return compiled.ok ? compiled : { ok: false, error: `failed to parse templates: ${compiled.error}` };
}
