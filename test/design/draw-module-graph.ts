/**
 * Draws the module graph of src, test, bench and native-bench and prints it as JSON, for the
 * design checks to read on stdin:
 *
 *   node dist/test/design/draw-module-graph.js > graph.json
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import type { ModuleGraph } from './module-graph.js';

/**
 * Every TypeScript module under `folders` (named from `root`) with the modules of the repository
 * it imports: static, type-only, re-exported and dynamic imports alike. Packages are left out.
 * TypeScript's own import scanner reads each file (`preProcessFile`: a scan, no parse or type
 * check); `./x.js` names the module `x.ts`, or the declaration file `x.d.ts`.
 */
export function drawModuleGraph(root: string, folders: readonly string[]): ModuleGraph {
  const modules: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) modules.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  const isFile = (path: string): boolean => statSync(join(root, path), { throwIfNoEntry: false })?.isFile() ?? false;
  const graph: ModuleGraph = {};
  for (const module of modules.sort()) {
    const scanned = ts.preProcessFile(readFileSync(join(root, module), 'utf8'), true, true);
    const imports = new Set<string>();
    for (const { fileName } of scanned.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const named = posix.normalize(posix.join(dirname(module), fileName)).replace(/\.js$/, '.ts');
      const found = [named, named.replace(/\.ts$/, '.d.ts'), `${named}.ts`, posix.join(named, 'index.ts')].find(isFile);
      if (found !== undefined) imports.add(found);
    }
    graph[module] = [...imports].sort();
  }
  return graph;
}

if (process.argv[1]?.endsWith('draw-module-graph.js')) {
  process.stdout.write(JSON.stringify(drawModuleGraph('.', ['src', 'test', 'bench', 'native-bench'])));
}
