/**
 * Dependencies between the folders of src/ point one way: reads madge's module graph (stdin,
 * `madge --json src`) and fails when folders depend on each other in a cycle, naming one module
 * import on each edge so the cycle can be found. madge --circular checks modules; two folders
 * can import each other without any module cycle, which is what this adds.
 */
import { readFileSync } from 'node:fs';

type Graph = Record<string, string[]>;

const folderOf = (module: string) => (module.includes('/') ? (module.split('/')[0] as string) : '.');

export function folderEdges(graph: Graph): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [from, imports] of Object.entries(graph)) {
    for (const to of imports) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a === b) continue;
      let out = edges.get(a);
      if (out === undefined) edges.set(a, (out = new Map()));
      if (!out.has(b)) out.set(b, `${from} -> ${to}`);
    }
  }
  return edges;
}

/** Every strongly connected set of two or more folders (Tarjan). */
export function folderCycles(edges: Map<string, Map<string, string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!indices.has(v)) visit(v);
  return cycles;
}

if (process.argv[1]?.endsWith('folder-cycles.js')) {
  const edges = folderEdges(JSON.parse(readFileSync(0, 'utf8')) as Graph);
  const cycles = folderCycles(edges);
  for (const cycle of cycles) {
    console.error(`folders depend on each other in a cycle: ${cycle.join(', ')}`);
    for (const a of cycle) for (const [b, example] of edges.get(a) ?? []) if (cycle.includes(b)) console.error(`  ${a} -> ${b}: ${example}`);
  }
  if (cycles.length === 0) console.log(`no folder cycles among ${edges.size} folders of src/`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
