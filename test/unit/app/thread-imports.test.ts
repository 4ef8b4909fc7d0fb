/**
 * What each kind of thread loads when it starts: the packages its entry file imports statically,
 * read from the compiled files. Every HTTP and decision thread, and the rules loader, pays for
 * each package it loads in CPU at every start (ioredis alone about a third of a second), so the
 * packages of a feature that is off (a store not chosen, xDS, the statistics' outputs that only the
 * main thread sends) are imported where the feature starts, not here.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** Static `import … from` and `export … from` of compiled JavaScript; `import()` is left out. */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

/** The npm packages `entry` (a file under src/) loads, through every relative import it makes statically. */
function packagesLoadedBy(entry: string): Set<string> {
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
  return packages;
}

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
  for (const name of ['pdfkit', '@resvg/resvg-js', 'verovio']) t.ok(renderer.has(name), `a render process loads ${name}`);
});
