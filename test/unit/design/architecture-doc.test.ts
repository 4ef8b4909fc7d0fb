import t from 'tap';
import { codeEdges, documentedEdges, missing } from '../../design/architecture-doc.js';

const DOC = `# Architecture

## Folder dependencies

Some words.

\`\`\`
main -> app  (the entry point)
app -> engine, backends
backends -> engine
\`\`\`

More words.
`;

t.test('the block is read one line per folder, remarks left out', async (t) => {
  const edges = documentedEdges(DOC);
  t.same([...edges.keys()], ['main', 'app', 'backends']);
  t.same([...(edges.get('app') ?? [])], ['engine', 'backends']);
});

t.test('an edge the code has and the doc lacks is named, and so is one the doc keeps after the code lost it', async (t) => {
  const code = codeEdges({ 'main.ts': ['app/app.ts'], 'app/app.ts': ['engine/a.ts', 'settings/s.ts'], 'backends/b.ts': [], 'engine/a.ts': [], 'settings/s.ts': [] });
  const doc = documentedEdges(DOC);
  t.same(missing(code, doc), ['app -> settings'], 'undocumented');
  t.same(missing(doc, code), ['app -> backends', 'backends -> engine'], 'stale');
});
