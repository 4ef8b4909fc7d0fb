/**
 * The render processes with the real entry file (verovio, resvg): every task within its budget.
 * A score past SCORES_MAX_EXPANDED_MEASURES is refused before engraving; one that needs more than
 * SCORES_RENDER_MAX_MEMORY_MB, or longer than SCORES_RENDER_TIMEOUT, fails with the setting named,
 * its process is ended, and the task queued behind it is done in a fresh one. The test process
 * itself never holds the engraving's memory.
 */
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { ExportBusy, ExportOverLimit, PooledNotationRenderer, type NotationRender, type RenderPoolOptions } from '../../../src/scores/exports/index.js';
import { generatedScore } from '../../support/generated-score.js';
import { repeatedScore } from '../../support/repeated-score.js';

const WORKER = fileURLToPath(new URL('../../../src/app/apis/render-worker.js', import.meta.url));
const SMALL = generatedScore({ title: 'Small', measures: 2, parts: 1 });
const MIB = 1024 * 1024;

function pool(t: Test, options: Partial<RenderPoolOptions> & { maxExpandedMeasures?: number; maxMemoryMb?: number } = {}): PooledNotationRenderer {
  const { maxExpandedMeasures = 2000, maxMemoryMb = 1024, ...rest } = options;
  const renderer = new PooledNotationRenderer({ entryFile: WORKER, processes: 1, nice: 0, limits: { maxExpandedMeasures, maxMemoryMb }, timeoutMs: 60_000, maxQueued: 8, ...rest });
  t.teardown(() => renderer.close());
  return renderer;
}

/** Settles `work`, as the error it rejected with or its value. */
function outcome<T>(work: Promise<T>): Promise<T | Error> {
  return work.catch((error: unknown) => error as Error);
}

async function engravedSmall(t: Test, queued: Promise<NotationRender | Error>): Promise<void> {
  const small = await queued;
  if (small instanceof Error) return void t.fail(`the queued score failed: ${small.message}`);
  t.equal(small.measureStartsMs.length, 2, 'the score queued behind is engraved, both its measures');
}

t.test('a score repeating one measure 5000 times is refused before engraving; the next one goes on', async (t) => {
  const renderer = pool(t);
  const [refused, small] = [outcome(renderer.render(repeatedScore(5000))), outcome(renderer.render(SMALL))];
  t.match(await refused, new ExportOverLimit('the score expands to 5000 measures with its repeats, more than SCORES_MAX_EXPANDED_MEASURES (2000)'));
  await engravedSmall(t, small);
});

t.test('an engraving that needs more than SCORES_RENDER_MAX_MEMORY_MB of WebAssembly memory fails; a fresh process takes the queue', async (t) => {
  const renderer = pool(t, { maxMemoryMb: 128 });
  const before = process.memoryUsage().rss;
  const [refused, small] = [outcome(renderer.render(repeatedScore(1000))), outcome(renderer.render(SMALL))];
  t.match(await refused, new ExportOverLimit('engraving needed more than SCORES_RENDER_MAX_MEMORY_MB (128 MiB) of memory'));
  await engravedSmall(t, small);
  const grown = (process.memoryUsage().rss - before) / MIB;
  t.ok(grown < 100, `this process grew ${grown.toFixed(0)} MiB: the engraving's memory (unbounded, about 350 MiB) is its own process's`);
});

t.test('a JSON export that needs more than SCORES_RENDER_MAX_MEMORY_MB of heap ends its process; a fresh one takes the queue', async (t) => {
  // 7 MB of elements whose JSON tree needs more than 48 MiB of heap. A low limit keeps the test
  // short: the heap fills, and V8 collects in vain, only up to the limit.
  const renderer = pool(t, { maxMemoryMb: 48 });
  const large = `<score-partwise>${'<a n="1"/>'.repeat(700_000)}</score-partwise>`;
  const [refused, small] = [outcome(renderer.toJson(large)), outcome(renderer.render(SMALL))];
  t.match(await refused, new ExportOverLimit('the JSON export needed more than SCORES_RENDER_MAX_MEMORY_MB (48 MiB) of memory'));
  await engravedSmall(t, small);
});

t.test('an engraving past SCORES_RENDER_TIMEOUT ends its process at the limit; a fresh one takes the queue', async (t) => {
  const renderer = pool(t, { timeoutMs: 1000 });
  await renderer.render(SMALL); // a process ready, so the clock below is the engraving's own
  const started = Date.now();
  const [refused, small] = [outcome(renderer.render(generatedScore({ title: 'Long', measures: 600, parts: 4 }))), outcome(renderer.render(SMALL))];
  t.match(await refused, new ExportOverLimit('engraving took longer than SCORES_RENDER_TIMEOUT (1000 ms)'));
  const elapsed = Date.now() - started;
  t.ok(elapsed < 3000, `refused after ${elapsed} ms (the engraving alone takes several seconds)`);
  await engravedSmall(t, small);
});

t.test('past SCORES_EXPORT_MAX_QUEUED waiting tasks, more are refused at once', async (t) => {
  const renderer = pool(t, { maxQueued: 1 });
  const tasks = [outcome(renderer.render(SMALL)), outcome(renderer.render(SMALL)), outcome(renderer.render(SMALL))];
  t.match(await tasks[2], new ExportBusy('1 exports already wait their turn, as many as SCORES_EXPORT_MAX_QUEUED (1) allows; try again later'));
  t.notOk((await tasks[0]) instanceof Error, 'the running one is done');
  t.notOk((await tasks[1]) instanceof Error, 'and the queued one');
});
