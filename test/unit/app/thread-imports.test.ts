/**
 * What each kind of thread loads when it starts: the packages in its entry file and the chunks
 * that file imports statically, read from what the build wrote (`npm run build` bundles each
 * entry file with the modules and packages it imports: bundle-threads.js, whose esbuild metafile
 * is dist/src/chunks/bundles.json). Every HTTP and decision thread, and the rules loader, pays
 * for each package it loads in CPU at every start (ioredis alone about a third of a second), so
 * the packages of a feature that is off (a store not chosen, xDS, the statistics' outputs that
 * only the main thread sends) are imported where the feature starts, not here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { COMMAND_ENTRIES, THREAD_ENTRIES } from '../../../src/app/thread-entries.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SRC = join(ROOT, 'dist/src');

interface BundleOutput {
  entryPoint?: string;
  imports: Array<{ path: string; kind: string; external?: boolean }>;
  inputs: Record<string, unknown>;
}
const outputs = (JSON.parse(readFileSync(join(SRC, 'chunks/bundles.json'), 'utf8')) as { outputs: Record<string, BundleOutput> }).outputs;

const packageOf = (specifier: string) => /^(@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;

/**
 * The npm packages that load with `module` (a file under dist/src/: an entry file, or a module a
 * thread imports with `import()`, which has a chunk of its own): those inside its output and every
 * output it imports statically, and (also in `outside`) those it imports from node_modules.
 */
function loadedBy(module: string): { packages: Set<string>; outside: Set<string> } {
  const start = Object.keys(outputs).find((file) => outputs[file]?.entryPoint === `dist/src/${module}`);
  if (start === undefined) throw new Error(`no bundle output for dist/src/${module}: run npm run build`);
  const files = new Set<string>();
  const packages = new Set<string>();
  const outside = new Set<string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    const output = outputs[file] as BundleOutput;
    for (const input of Object.keys(output.inputs)) {
      const inPackage = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (inPackage !== null) packages.add(inPackage[1] as string);
    }
    for (const { path, kind, external } of output.imports) {
      if (kind !== 'import-statement') continue;
      if (external !== true) pending.push(path);
      else if (!isBuiltin(path)) outside.add(packageOf(path));
    }
  }
  return { packages: new Set([...packages, ...outside]), outside };
}

const packagesLoadedBy = (module: string) => loadedBy(module).packages;

/** Packages of features a thread may not use: each loads where its feature starts. */
const ON_DEMAND = ['ioredis', 'prom-client', 'hot-shots', 'yaml', '@grpc/grpc-js', 'protobufjs', '@opentelemetry/sdk-node', 'piscina'];

t.test('the main thread loads what it always serves (the reading is not vacuous), and no more', async (t) => {
  const main = packagesLoadedBy('main.js');
  for (const name of ['@grpc/grpc-js', 'protobufjs', 'yaml']) t.ok(main.has(name), `main.js loads ${name}`);
  t.notOk(main.has('ioredis'), 'but not ioredis: the store loads it when chosen');
  t.notOk(main.has('hot-shots'), 'nor hot-shots: a statsd sink loads it when statistics go to a daemon');
  t.notOk(main.has('piscina'), 'nor piscina: DECISION_MODE=pool loads it');
  t.notOk(main.has('prom-client'), 'nor prom-client: the first scrape of a Prometheus page loads it');
});

for (const [entry, what] of [
  ['app/http/http-worker.js', 'an HTTP thread'],
  ['app/decisions/decision-worker.js', 'a decision pool thread'],
] as const) {
  t.test(`${what} loads no package of a feature it may not use`, async (t) => {
    const loaded = packagesLoadedBy(entry);
    for (const name of ON_DEMAND) t.notOk(loaded.has(name), `${entry} does not load ${name}`);
  });
}

t.test('the rules loader thread loads YAML, and xDS only once resources arrive', async (t) => {
  const loaded = packagesLoadedBy('app/rules/rules-loader-thread.js');
  t.ok(loaded.has('yaml'));
  for (const name of ['@grpc/grpc-js', 'protobufjs']) t.notOk(loaded.has(name), `it does not load ${name} at its start`);
});

t.test('the API thread loads the code of neither API at its start: each loads when it opens', async (t) => {
  const loaded = packagesLoadedBy('app/apis/api-thread.js');
  for (const name of ['yaml', 'better-sqlite3', 'nodemailer', 'exceljs', 'pg', 'saxes']) t.notOk(loaded.has(name), `it does not load ${name}`);
});

t.test('the score API loads no spreadsheet, PostgreSQL or engraving library until one is used', async (t) => {
  const loaded = packagesLoadedBy('app/apis/scores.js');
  t.ok(loaded.has('better-sqlite3'), 'it loads its default store');
  for (const name of ['exceljs', 'pg', 'pdfkit', 'svg-to-pdfkit', '@resvg/resvg-js', 'verovio']) t.notOk(loaded.has(name), `it does not load ${name}`);
  const renderer = packagesLoadedBy('app/apis/render-worker.js');
  for (const name of ['@resvg/resvg-js', 'verovio']) t.ok(renderer.has(name), `a render process loads ${name}`);
  for (const name of ['pdfkit', 'svg-to-pdfkit']) t.notOk(renderer.has(name), `a render process loads ${name} on its first PDF only`);
});

t.test('a thread loads its packages from inside its bundle: only native addons come from node_modules', async (t) => {
  const nativeAddons = new Set(['@trufflesuite/uws-js-unofficial', 'better-sqlite3']);
  for (const entry of ['main.js', 'app/http/http-worker.js', 'app/rules/rules-loader-thread.js', 'app/apis/api-thread.js', 'app/apis/alerts.js']) {
    const { packages, outside } = loadedBy(entry);
    t.same([...outside].filter((name) => !nativeAddons.has(name)), [], `${entry} bundles its ${packages.size - outside.size} packages`);
  }
});

/** Static `import … from` and `export … from` of compiled JavaScript; `import()` is left out. */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

t.test('every thread entry file and command is bundled (npm run build): it loads shared chunks, not the modules of src/ one by one', async (t) => {
  for (const entry of [...Object.values(THREAD_ENTRIES), ...Object.values(COMMAND_ENTRIES)]) {
    const file = join(SRC, entry);
    const relativeImports = [...readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)].map(([, specifier]) => specifier as string).filter((specifier) => specifier.startsWith('.'));
    const modules = relativeImports.map((specifier) => relative(SRC, join(dirname(file), specifier))).filter((imported) => !imported.startsWith('chunks/'));
    t.same(modules, [], `${entry} imports ${relativeImports.length} chunks and no module file of src/`);
    t.ok(relativeImports.length > 0, `${entry} imports its chunks (the reading is not vacuous)`);
  }
});

/** Every compiled module of src/ (not the bundles' chunks), by its path below dist/src/. */
function compiledModules(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'chunks' && folder === SRC ? [] : compiledModules(path);
    return entry.name.endsWith('.js') ? [relative(SRC, path)] : [];
  });
}

t.test('no module of src/ names a file relative to itself: bundled, its code runs from another folder', async (t) => {
  const relativeToModule = /new URL\([^)]*import\.meta\.url/;
  const naming = compiledModules().filter((file) => relativeToModule.test(readFileSync(join(SRC, file), 'utf8')));
  t.same(naming, [], 'package files are named through transports/package-files.ts');
});
