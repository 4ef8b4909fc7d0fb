/**
 * The folder dependencies docs/architecture.md draws are the ones the code has: reads the
 * module graph of the repository (stdin) and the `## Folder dependencies` block of the doc, and
 * fails naming every edge one has and the other lacks, so the drawing cannot drift.
 *
 * The block has one line per folder: `from -> to, to, to` and, after two spaces, an optional
 * remark in parentheses. `main` is src/main.ts.
 */
import { readFileSync } from 'node:fs';
import { folderEdges } from './folder-cycles.js';
import { readGraph, within, type ModuleGraph } from './module-graph.js';

export type Edges = Map<string, Set<string>>;

/** The edges the doc's block lists. */
export function documentedEdges(markdown: string): Edges {
  const section = markdown.split(/^## Folder dependencies\s*$/m)[1] ?? '';
  const block = /```\n([^]*?)```/.exec(section)?.[1] ?? '';
  const edges: Edges = new Map();
  for (const line of block.split('\n')) {
    const m = /^(\S+) -> ([^(]+?)(\s{2,}\(.*\))?$/.exec(line.trim());
    if (m === null) continue;
    edges.set(m[1] as string, new Set((m[2] as string).split(',').map((name) => name.trim())));
  }
  return edges;
}

/** The folder edges of the module graph, src/main.ts as `main`. */
export function codeEdges(graph: ModuleGraph): Edges {
  const named = (folder: string) => (folder === '.' ? 'main' : folder);
  const edges: Edges = new Map();
  for (const [from, targets] of folderEdges(graph)) edges.set(named(from), new Set([...targets.keys()].map(named)));
  return edges;
}

/** `from -> to` lines present in `a` and missing from `b`. */
export function missing(a: Edges, b: Edges): string[] {
  const lines: string[] = [];
  for (const [from, targets] of a) for (const to of targets) if (!b.get(from)?.has(to)) lines.push(`${from} -> ${to}`);
  return lines.sort();
}

if (process.argv[1]?.endsWith('architecture-doc.js')) {
  const code = codeEdges(within(readGraph(), 'src'));
  const doc = documentedEdges(readFileSync(process.argv[2] ?? 'docs/architecture.md', 'utf8'));
  const undocumented = missing(code, doc);
  const stale = missing(doc, code);
  for (const edge of undocumented) console.error(`docs/architecture.md lacks the folder dependency ${edge}, which the code has`);
  for (const edge of stale) console.error(`docs/architecture.md draws the folder dependency ${edge}, which the code no longer has`);
  if (undocumented.length + stale.length === 0) console.log(`docs/architecture.md draws the ${[...code.values()].reduce((n, s) => n + s.size, 0)} folder dependencies the code has`);
  process.exit(undocumented.length + stale.length === 0 ? 0 : 1);
}
