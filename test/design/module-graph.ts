/**
 * The repository's module graph (drawn once per run by test/design/draw-module-graph.ts, from
 * test/design-checks.sh, and read by each check from stdin) and the cycle search the checks share.
 */
import { readFileSync } from 'node:fs';

/** Each module (its path from the repository root) and the modules it imports. */
export type ModuleGraph = Record<string, string[]>;

/** The graph on stdin. */
export function readGraph(): ModuleGraph {
  return JSON.parse(readFileSync(0, 'utf8')) as ModuleGraph;
}

/** The modules under `folder`, named from inside it, with their imports of modules also under it. */
export function within(graph: ModuleGraph, folder: string): ModuleGraph {
  const prefix = `${folder}/`;
  const inside: ModuleGraph = {};
  for (const [from, imports] of Object.entries(graph)) {
    if (!from.startsWith(prefix)) continue;
    inside[from.slice(prefix.length)] = imports.filter((to) => to.startsWith(prefix)).map((to) => to.slice(prefix.length));
  }
  return inside;
}

/** Every strongly connected set of two or more nodes, and every node that reaches itself (Tarjan), each sorted. */
export function cycles(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    let selfLoop = false;
    for (const w of edges.get(v) ?? []) {
      if (w === v) selfLoop = true;
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
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!indices.has(v)) visit(v);
  return found;
}
