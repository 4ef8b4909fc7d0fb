// The second step of `npm run build`, after tsc: bundles the compiled entry file of every thread
// and process (src/app/thread-entries.ts) with the modules of src/ it imports, in place, so that a
// thread starts by loading a few files instead of a few hundred. Node 20 has no compile cache,
// and each ES module costs a resolve, a read and a compile of its own: a start of the service took
// about a fifth less CPU bundled. npm packages stay outside the bundles and load as before.
//
// Code that threads share goes to dist/src/chunks/, and what a thread imports with `import()` to a
// chunk of its own, so what loads on demand still does. The source maps point at the TypeScript
// sources through tsc's maps. The modules' own files stay in dist/src/ for the tests that import
// them.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { THREAD_ENTRIES } from './dist/src/app/thread-entries.js';

const OUT = 'dist/src';

await rm(`${OUT}/chunks`, { recursive: true, force: true });
await build({
  entryPoints: Object.values(THREAD_ENTRIES).map((entry) => `${OUT}/${entry}`),
  outdir: OUT,
  outbase: OUT,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
