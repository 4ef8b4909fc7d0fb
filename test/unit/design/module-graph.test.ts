import t from 'tap';
import { drawModuleGraph } from '../../design/draw-module-graph.js';
import { cycles, within } from '../../design/module-graph.js';

const edges = (graph: Record<string, string[]>) => new Map(Object.entries(graph));

t.test('modules importing each other, directly, through others or themselves, are cycles', async (t) => {
  t.same(cycles(edges({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'] })), [['a.ts', 'b.ts']]);
  t.same(cycles(edges({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts', 'd.ts'], 'd.ts': [] })), [['a.ts', 'b.ts', 'c.ts']]);
  t.same(cycles(edges({ 'a.ts': ['a.ts'] })), [['a.ts']]);
  t.same(cycles(edges({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts'], 'c.ts': ['d.ts'], 'd.ts': ['c.ts'] })), [['a.ts', 'b.ts'], ['c.ts', 'd.ts']]);
});

t.test('a graph whose imports point one way has no cycle, shared imports included', async (t) => {
  t.same(cycles(edges({ 'app.ts': ['engine.ts', 'store.ts'], 'store.ts': ['engine.ts'], 'engine.ts': [] })), []);
  t.same(cycles(edges({ 'a.ts': ['unlisted.ts'] })), []);
});

t.test('within: the modules of one folder named from inside it, imports leaving it dropped', async (t) => {
  const graph = { 'src/main.ts': ['src/app/app.ts'], 'src/app/app.ts': [], 'test/x.test.ts': ['src/app/app.ts'], 'src/app/uses-test.ts': ['test/support/x.ts', 'src/main.ts'] };
  t.same(within(graph, 'src'), { 'main.ts': ['app/app.ts'], 'app/app.ts': [], 'app/uses-test.ts': ['main.ts'] });
});

t.test('the drawn graph: every kind of import of a module in the repository, packages left out', async (t) => {
  const root = t.testdir({
    src: {
      'main.ts': "import { a } from './a.js';\nimport type { B } from './b.js';\nexport * from './c.js';\nimport 'node:fs';\nimport pkg from 'some-package';\n",
      'a.ts': "export const a = () => import('./lazy/late.js');\n",
      'b.ts': "export { x } from './c.js';\nexport interface B { x: number }\n",
      'c.ts': "export const x = 1;\n",
      'typed.ts': "import type { Options } from './shapes.js';\n",
      'shapes.d.ts': "export interface Options { n: number }\n",
      lazy: { 'late.ts': "import { missing } from './not-there.js';\n" },
    },
    other: { 'x.ts': "import { x } from '../src/c.js';\n" },
  });
  t.same(drawModuleGraph(root, ['src', 'other']), {
    'other/x.ts': ['src/c.ts'],
    'src/a.ts': ['src/lazy/late.ts'],
    'src/b.ts': ['src/c.ts'],
    'src/c.ts': [],
    'src/lazy/late.ts': [],
    'src/main.ts': ['src/a.ts', 'src/b.ts', 'src/c.ts'],
    'src/shapes.d.ts': [],
    'src/typed.ts': ['src/shapes.d.ts'],
  });
});
