/**
 * Dependencies between the folders of src/ point one way: reads the module graph (stdin) and
 * fails when folders depend on each other in a cycle, naming one module import on each edge so
 * the cycle can be found. module-cycles.ts checks modules; two folders can import each other
 * without any module cycle, which is what this adds.
 */
import { cycles, readGraph, within, type ModuleGraph } from './module-graph.js';

const folderOf = (module: string) => (module.includes('/') ? (module.split('/')[0] as string) : '.');

export function folderEdges(graph: ModuleGraph): Map<string, Map<string, string>> {
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

/** Every set of folders that depend on each other in a cycle. */
export function folderCycles(edges: Map<string, Map<string, string>>): string[][] {
  return cycles(new Map([...edges].map(([folder, targets]) => [folder, targets.keys()])));
}

if (process.argv[1]?.endsWith('folder-cycles.js')) {
  const edges = folderEdges(within(readGraph(), 'src'));
  const cycles = folderCycles(edges);
  for (const cycle of cycles) {
    console.error(`folders depend on each other in a cycle: ${cycle.join(', ')}`);
    for (const a of cycle) for (const [b, example] of edges.get(a) ?? []) if (cycle.includes(b)) console.error(`  ${a} -> ${b}: ${example}`);
  }
  if (cycles.length === 0) console.log(`no folder cycles among ${edges.size} folders of src/`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
