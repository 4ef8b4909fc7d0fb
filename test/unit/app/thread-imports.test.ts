/**
 * What each kind of thread loads when it starts: the packages its entry file imports statically,
 * read from the compiled files. Every HTTP and decision thread, and the rules loader, pays for
 * each package it loads in CPU at every start (ioredis alone about a third of a second), so the
 * packages of a feature that is off (a store not chosen, xDS, the statistics' outputs that only the
 * main thread sends) are imported where the feature starts, not here. The entry files are
 * bundles (`npm run build`, bundle-threads.js) that import shared chunks, read the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { THREAD_ENTRIES } from '../../../src/app/thread-entries.js';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Static `import … from` and `export … from` of compiled JavaScript; `import()` is left out. */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

/** The files of dist/src/ and the npm packages `entry` (a file under src/) loads, through every relative import it makes statically. */
function loadedBy(entry: string): { files: Set<string>; packages: Set<string> } {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [resolve(SRC, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier === undefined || specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else packages.add(/^(@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier);
    }
  }
  return { files: seen, packages };
}

const packagesLoadedBy = (entry: string) => loadedBy(entry).packages;

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

t.test('every thread entry file is bundled (npm run build): it loads shared chunks, not the modules of src/ one by one', async (t) => {
  for (const entry of Object.values(THREAD_ENTRIES)) {
    const own = [...loadedBy(entry).files].map((file) => relative(SRC, file)).filter((file) => file !== entry);
    t.same(own.filter((file) => !file.startsWith('chunks/')), [], `${entry} loads ${own.length} chunks and no module file of src/`);
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
