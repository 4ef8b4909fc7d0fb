/**
 * No module imports itself through others: reads the module graph (stdin) and fails naming
 * the modules of each cycle and the imports that close it.
 */
import { cycles, readGraph } from './module-graph.js';

if (process.argv[1]?.endsWith('module-cycles.js')) {
  const graph = readGraph();
  const found = cycles(new Map(Object.entries(graph)));
  for (const cycle of found) {
    console.error(`modules import each other in a cycle: ${cycle.join(', ')}`);
    for (const from of cycle) for (const to of graph[from] ?? []) if (cycle.includes(to)) console.error(`  ${from} -> ${to}`);
  }
  if (found.length === 0) console.log(`no import cycles among ${Object.keys(graph).length} modules`);
  process.exit(found.length === 0 ? 0 : 1);
}
