import t from 'tap';
import { folderCycles, folderEdges } from '../../design/folder-cycles.js';

t.test('two folders importing each other are a cycle, with an example import per edge', async (t) => {
  const edges = folderEdges({
    'engine/a.ts': ['backends/store.ts'],
    'backends/store.ts': ['engine/units.ts'],
    'engine/units.ts': [],
    'app/app.ts': ['engine/a.ts'],
  });
  t.same(folderCycles(edges), [['backends', 'engine']]);
  t.equal(edges.get('engine')?.get('backends'), 'engine/a.ts -> backends/store.ts');
});

t.test('longer folder cycles are found; one-way graphs pass', async (t) => {
  t.same(folderCycles(folderEdges({ 'a/x.ts': ['b/x.ts'], 'b/x.ts': ['c/x.ts'], 'c/x.ts': ['a/y.ts'], 'a/y.ts': [] })), [['a', 'b', 'c']]);
  t.same(folderCycles(folderEdges({ 'app/x.ts': ['engine/x.ts', 'backends/x.ts'], 'backends/x.ts': ['engine/x.ts'], 'engine/x.ts': [] })), []);
});
