/**
 * Engravings built to exhaust the service, against the real process: a 600-byte score that
 * repeats one measure 5000 times, and scores within that bound that still need more memory or
 * time than an engraving may have. Each is answered in the API's error form naming its setting,
 * the export another user queued behind it is answered correctly, and the service's memory stays
 * bounded.
 */
import { parseMidi } from 'midi-file';
import t, { type Test } from 'tap';
import { generatedScore } from '../support/generated-score.js';
import { childrenNamed, memoryOf } from '../support/process-memory.js';
import { repeatedScore } from '../support/repeated-score.js';
import type { Fetched } from '../support/score-api-client.js';
import { peakMiB, scoreOf, scoreServiceProcess, type ScoreServiceProcess } from '../support/score-service-process.js';

const SMALL = generatedScore({ title: 'Small', measures: 2, parts: 1 });

/**
 * One service for the bounds on what an engraving may hold (it stops when the file's tests end):
 * SCORES_MAX_EXPANDED_MEASURES at its default, SCORES_RENDER_MAX_MEMORY_MB low enough for a test.
 */
let bounded: Promise<ScoreServiceProcess> | undefined;
const memoryBoundService = () => (bounded ??= scoreServiceProcess(t, { SCORES_RENDER_MAX_MEMORY_MB: '128' }));

/** MIDI key numbers the file plays, in order. */
function midiNotes(bytes: Uint8Array): number[] {
  return parseMidi(bytes).tracks.flatMap((track) => track.flatMap((event) => (event.type === 'noteOn' && event.velocity > 0 ? [event.noteNumber] : [])));
}

function expectSmallMidi(t: Test, answer: Fetched): void {
  t.equal(answer.status, 200, "the other user's export queued behind is answered");
  if (answer.status === 200) t.same(midiNotes(answer.bytes).slice(0, 8), [60, 62, 64, 65, 67, 69, 71, 72], 'with the MIDI of its score');
}

/** Alice asks for the MIDI of `hostile` and Bob, right behind her, for that of a small score of his. */
async function hostileThenSmall(service: ScoreServiceProcess, hostile: string): Promise<{ refused: Fetched; small: Fetched; elapsedMs: number; hostileBase: string }> {
  const hers = await scoreOf(service.alice, hostile);
  const his = await scoreOf(service.bob, SMALL);
  const started = Date.now();
  const [refused, small] = await Promise.all([service.alice.call('GET', `${hers.base}/midi`), service.bob.call('GET', `${his.base}/midi`)]);
  return { refused, small, elapsedMs: Date.now() - started, hostileBase: hers.base };
}

t.test('a score repeating one measure 5000 times is refused before engraving; the export queued behind it is answered', async (t) => {
  const service = await memoryBoundService();
  const before = await peakMiB(service.proc);
  const { refused, small, elapsedMs } = await hostileThenSmall(service, repeatedScore(5000));
  t.equal(refused.status, 422);
  t.match(refused.json(), { code: 'EXPORT_OVER_LIMIT', message: /is refused: the score expands to 5000 measures with its repeats, more than SCORES_MAX_EXPANDED_MEASURES \(2000\)$/, param: 'format' });
  expectSmallMidi(t, small);
  t.ok(elapsedMs < 15_000, `both answered in ${elapsedMs} ms`);
  const grown = (await peakMiB(service.proc)) - before;
  t.ok(grown < 200, `the service's peak memory grew ${grown.toFixed(0)} MiB`);
});

t.test('an engraving that needs more than SCORES_RENDER_MAX_MEMORY_MB is refused; the export queued behind it is answered', async (t) => {
  const service = await memoryBoundService();
  const pid = service.proc.child.pid as number;
  // The render processes are the service's node children: the most any of them held while engraving.
  let mostMiB = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      for (const child of await childrenNamed(pid, 'node')) mostMiB = Math.max(mostMiB, await memoryOf(child).then((memory) => memory.rssMiB, () => 0));
      // The memory grows over seconds: a look every few milliseconds, not a busy loop.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  // Unbounded, verovio takes this score to about 650 MiB of WebAssembly memory.
  const { refused, small } = await hostileThenSmall(service, repeatedScore(1500));
  watching = false;
  await watcher;
  t.equal(refused.status, 422);
  t.match(refused.json(), { code: 'EXPORT_OVER_LIMIT', message: /is refused: engraving needed more than SCORES_RENDER_MAX_MEMORY_MB \(128 MiB\) of memory$/ });
  expectSmallMidi(t, small);
  t.ok(mostMiB > 0 && mostMiB < 450, `the render processes held at most ${mostMiB.toFixed(0)} MiB`);
});

t.test('an engraving past SCORES_RENDER_TIMEOUT is ended; the export queued behind it is answered, and asking again is answered at once', async (t) => {
  // Renders at normal priority: beside other test files, niced ones would wait for all of them
  // and the small score behind could pass SCORES_RENDER_TIMEOUT too. The small score's first
  // engraving in a fresh process takes a third of a second on an idle host and was seen past one
  // second on a loaded one; the long one takes several seconds on any.
  const service = await scoreServiceProcess(t, { SCORES_RENDER_TIMEOUT: '3s', API_THREAD_NICE: '0' });
  const { refused, small, hostileBase } = await hostileThenSmall(service, generatedScore({ title: 'Long', measures: 1200, parts: 4 }));
  t.equal(refused.status, 422);
  t.match(refused.json(), { code: 'EXPORT_OVER_LIMIT', message: /is refused: engraving took longer than SCORES_RENDER_TIMEOUT \(3000 ms\)$/ });
  expectSmallMidi(t, small);
  const started = Date.now();
  const again = await service.alice.call('GET', `${hostileBase}/thumbnail.png`);
  const elapsed = Date.now() - started;
  t.same(again.json(), { ...(refused.json() as object), message: (refused.json() as { message: string }).message.replace('midi export', 'thumbnail.png export') }, 'the refusal is remembered');
  t.ok(elapsed < 1000, `and answered in ${elapsed} ms, without engraving again`);
});
