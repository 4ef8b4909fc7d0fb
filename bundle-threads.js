// The second step of `npm run build`, after tsc: bundles the compiled entry file of every thread
// and process, and of the command-line tools (src/app/thread-entries.ts), with the modules of src/
// and the npm packages it imports, in place, so that a thread starts by loading a few files
// instead of a few hundred, or a few thousand with the packages. Node 20 has no compile cache,
// and each module costs a resolve, a read and a compile of its own: bundling src/ took a start's
// CPU down by about a fifth, and bundling the packages too took the main thread's start from about
// 0.95 to 0.7 s of CPU.
//
// Code that threads share goes to dist/src/chunks/, and what a thread imports with `import()` to a
// chunk of its own, so what loads on demand still does. The source maps point at the TypeScript
// sources through tsc's maps. The modules' own files stay in dist/src/ for the tests that import
// them. What went into which file is written to dist/src/chunks/bundles.json (esbuild's
// metafile), from which test/unit/app/thread-imports.test.ts reads what each thread loads.
import { rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { COMMAND_ENTRIES, THREAD_ENTRIES } from './dist/src/app/thread-entries.js';

const OUT = 'dist/src';

/**
 * Packages left outside the bundles, loaded from node_modules as before: native addons (they
 * load their binary from next to their own code), packages that read files or start workers
 * from their own folder (verovio's WebAssembly, pdfkit's font data, piscina's worker), and
 * OpenTelemetry: our tracing, prom-client and the exporters must share one copy of
 * @opentelemetry/api, which keeps its state in one global per version.
 */
const OUTSIDE = [
  '@trufflesuite/uws-js-unofficial',
  'better-sqlite3',
  '@resvg/resvg-js',
  'unix-dgram',
  'verovio',
  'pdfkit',
  'svg-to-pdfkit',
  'piscina',
  '@opentelemetry/',
];

const packageName = (specifier) => /^(@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;

/** Marks node: modules and the OUTSIDE packages external; everything else is bundled. */
const keepOutside = {
  name: 'keep-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      const name = packageName(path);
      const outside = path.startsWith('node:') || OUTSIDE.some((kept) => (kept.endsWith('/') ? name.startsWith(kept) : name === kept));
      return outside ? { path, external: true } : undefined;
    });
  },
};

await rm(`${OUT}/chunks`, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [...Object.values(THREAD_ENTRIES), ...Object.values(COMMAND_ENTRIES)].map((entry) => `${OUT}/${entry}`),
  outdir: OUT,
  outbase: OUT,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [keepOutside],
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  metafile: true,
  sourcemap: 'linked',
  // Positions only: `npm start` runs with --enable-source-maps, which reads each map as its file
  // loads, and maps holding the packages' own sources cost a start 0.27 s of CPU against 0.12.
  // Stack traces still name the TypeScript files, read from src/ when a trace shows a line.
  sourcesContent: false,
  logLevel: 'warning',
});
await writeFile(`${OUT}/chunks/bundles.json`, JSON.stringify(metafile));
