/**
 * The exporter with the real engraver and synthesiser on this thread: concurrent requests for the
 * files of one engraving start it once; later ones read the cache; failed jobs are not kept;
 * audio is refused past its length bound and synthesised a bounded number at a time; the pieces
 * it builds on (WAV length fitting on disk, synchronization points, the JSON form) behave.
 */
import { readFileSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ServiceError } from '../../../src/errors/index.js';
import { AudioSynthesizer, ExportOverLimit, ScoreExporter, type NotationRenderer } from '../../../src/scores/exports/index.js';
import { drawPdf } from '../../../src/scores/exports/pdf-file.js';
import { musicXmlToJson, rasterisePage, renderNotation } from '../../../src/scores/exports/render-process.js';
import { measureUuid, synchronizationPoints } from '../../../src/scores/exports/sync-points.js';
import { fitWavFile } from '../../../src/scores/exports/wav.js';
import { wavFacts } from '../../support/audio.js';
import { generatedScore } from '../../support/generated-score.js';
import { tempDir } from '../../support/temp-dir.js';

const XML = readFileSync(new URL('../../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');
const MIB = 1024 * 1024;

function countingRenderer(fail: Array<Error | undefined> = []): NotationRenderer & { engravings: number } {
  const renderer = {
    engravings: 0,
    render: (xml: string) => {
      const failure = fail[renderer.engravings++];
      return failure === undefined ? renderNotation(xml) : Promise.reject(failure);
    },
    toJson: (xml: string) => Promise.resolve(musicXmlToJson(xml)),
    pdf: drawPdf,
    png: rasterisePage,
    close: () => Promise.resolve(),
  };
  return renderer;
}

const TOOLS = { fluidsynth: 'fluidsynth', lame: 'lame', soundfont: '/usr/share/sounds/sf2/default-GM.sf2', sampleRate: 22050, mp3BitrateKbps: 64, nice: 0, timeoutMs: 60_000 };

async function exporterIn(t: Test, renderer: NotationRenderer, options: { fluidsynth?: string; synthConcurrency?: number; maxQueued?: number; maxAudioMs?: number } = {}): Promise<ScoreExporter> {
  return new ScoreExporter({
    cache: { dir: await tempDir(t, 'exporter-'), maxBytes: 1024 * MIB, accountShare: 1, now: Date.now },
    renderer,
    audio: new AudioSynthesizer({ ...TOOLS, fluidsynth: options.fluidsynth ?? 'fluidsynth' }),
    maxAudioMs: options.maxAudioMs ?? 600_000,
    synthConcurrency: options.synthConcurrency ?? 1,
    maxQueued: options.maxQueued ?? 32,
  });
}

function sourceOf(revisionId: string, xml: string) {
  const source = { scoreId: `score-of-${revisionId}`, revisionId, ownerId: 'alice', reads: 0, musicXml: () => (source.reads++, Promise.resolve(xml)) };
  return source;
}

t.test('concurrent exports of one engraving run it once; later ones come from the cache', async (t) => {
  const renderer = countingRenderer();
  const exporter = await exporterIn(t, renderer);
  const source = sourceOf('r', XML);
  const files = await Promise.all([exporter.export(source, 'midi'), exporter.export(source, 'thumbnail.png'), exporter.export(source, 'midi'), exporter.export(source, 'synchronizationPoints'), exporter.export(source, 'wav')]);
  t.equal(renderer.engravings, 1, 'one engraving served MIDI, thumbnail, timing and audio');
  t.same(files[0], files[2], 'both MIDI requests got the same file');
  t.match(wavFacts(files[4] as Uint8Array), { seconds: 4, sampleRate: 22050 }, 'the audio lasts as long as the music, at the sample rate asked for');
  await exporter.export(source, 'thumbnail.png');
  t.equal(renderer.engravings, 1, 'a cached file is not produced again');
  const readsBefore = source.reads;
  const mp3 = await exporter.exportFile(source, 'mp3');
  t.equal(source.reads, readsBefore, 'the MP3 comes from the cached WAV, without reading the score again');
  t.match(await exporter.cached('r', 'mp3'), mp3, 'the answer is the cached file, by path and size');
  await exporter.forget(['r']);
  t.equal(await exporter.cached('r', 'mp3'), undefined, 'forgotten revisions lose their files');
});

t.test('a failed job is not kept: the next request starts a new one', async (t) => {
  const renderer = countingRenderer([new Error('the render thread stopped (exit code 1)')]);
  const exporter = await exporterIn(t, renderer);
  const source = sourceOf('r', XML);
  t.match(await exporter.exportFile(source, 'midi'), { code: 'SC_EXPORT_FAILED', message: 'the midi export of revision r failed: engraving: the render thread stopped (exit code 1)' });
  t.notOk((await exporter.exportFile(source, 'midi')) instanceof ServiceError, 'a later request engraves again, and succeeds');
  t.equal(renderer.engravings, 2);
});

t.test('an engraving refused for a bound is answered again at once, without spending the budget again', async (t) => {
  const renderer = countingRenderer([new ExportOverLimit('engraving took longer than SCORES_RENDER_TIMEOUT (100 ms)')]);
  const exporter = await exporterIn(t, renderer);
  const source = sourceOf('r', XML);
  const refused = { code: 'SC_EXPORT_OVER_LIMIT', message: 'the midi export of revision r is refused: engraving took longer than SCORES_RENDER_TIMEOUT (100 ms)', details: { param: 'format' } };
  t.match(await exporter.exportFile(source, 'midi'), refused);
  t.match(await exporter.exportFile(source, 'wav'), { ...refused, message: refused.message.replace('midi', 'wav') });
  t.equal(renderer.engravings, 1, 'the engraver was asked once');
});

t.test('audio longer than SCORES_MAX_AUDIO_DURATION is refused before FluidSynth starts', async (t) => {
  // FluidSynth is missing here: were it started, the answer would say so (SC_EXPORT_UNAVAILABLE).
  const exporter = await exporterIn(t, countingRenderer(), { fluidsynth: '/nonexistent/fluidsynth', maxAudioMs: 600_000 });
  const slow = sourceOf('slow', generatedScore({ title: 'Slow', measures: 50, parts: 1, tempo: 6 }));
  t.match(await exporter.exportFile(slow, 'wav'), { code: 'SC_EXPORT_OVER_LIMIT', message: 'the wav export of revision slow is refused: the music lasts 2000 s, longer than SCORES_MAX_AUDIO_DURATION (600 s)' });
  t.match(await exporter.exportFile(slow, 'mp3'), { code: 'SC_EXPORT_OVER_LIMIT' }, 'and so is its MP3');
  t.match(await exporter.exportFile(sourceOf('short', XML), 'wav'), { code: 'SC_EXPORT_UNAVAILABLE' }, 'a short score does go to FluidSynth');
});

t.test('SCORES_SYNTH_CONCURRENCY synthesisers run at once; past SCORES_EXPORT_MAX_QUEUED waiting, exports are refused', async (t) => {
  const exporter = await exporterIn(t, countingRenderer(), { synthConcurrency: 1, maxQueued: 1 });
  const sources = ['a', 'b', 'c'].map((id) => sourceOf(id, generatedScore({ title: id, measures: 30, parts: 1 })));
  for (const source of sources) await exporter.export(source, 'midi');
  const answers = await Promise.all(sources.map((source) => exporter.exportFile(source, 'wav')));
  // Which of the three comes last depends on the order their steps finish: one runs, one waits, one is refused.
  const refused = answers.flatMap((answer, i) => (answer instanceof ServiceError ? [i] : []));
  t.equal(refused.length, 1, 'one synthesises at once, one waits its turn, the third is refused');
  const last = refused[0] as number;
  const id = ['a', 'b', 'c'][last] as string;
  t.match(answers[last], { code: 'SC_EXPORT_BUSY', message: `the wav export of revision ${id} cannot start now: 1 exports already wait their turn, as many as SCORES_EXPORT_MAX_QUEUED (1) allows; try again later` });
  t.notOk((await exporter.exportFile(sources[last] as ReturnType<typeof sourceOf>, 'wav')) instanceof ServiceError, 'once the queue drained, it goes through');
});

/** A 16-bit PCM WAV file of `frames` frames of `channels` channels, every sample `value`, as FluidSynth lays it out. */
async function wavFile(path: string, sampleRate: number, channels: number, frames: number, value: number): Promise<void> {
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < data.length; i += 2) data.writeInt16LE(value, i);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  await writeFile(path, Buffer.concat([header, data]));
}

/** Samples of the first channel, from the WAV file's data chunk (at 44 in these files). */
async function firstChannel(path: string, channels: number): Promise<number[]> {
  const bytes = await readFile(path);
  const samples: number[] = [];
  for (let at = 44; at + 1 < bytes.length; at += channels * 2) samples.push(bytes.readInt16LE(at));
  return samples;
}

t.test('audio is cut or padded to the length asked for on disk, with a fade at the end', async (t) => {
  const dir = await tempDir(t, 'wav-');
  const longer = join(dir, 'longer.wav');
  await wavFile(longer, 100, 2, 100, 1000);
  await fitWavFile(longer, 1.5, 0.1);
  const padded = await firstChannel(longer, 2);
  t.equal(padded.length, 150, '1.5 s at 100 frames a second');
  t.equal(padded[99], 1000, 'the audio is kept');
  t.equal(padded[100], 0, 'then silence');
  t.match(wavFacts(await readFile(longer)), { channels: 2, sampleRate: 100, seconds: 1.5 }, 'a WAV that Python reads, of the new length');

  const shorter = join(dir, 'shorter.wav');
  await wavFile(shorter, 100, 2, 100, 1000);
  await fitWavFile(shorter, 0.5, 0.1);
  const cut = await firstChannel(shorter, 2);
  t.equal(cut.length, 50);
  t.equal(cut[0], 1000);
  t.equal(cut[49], 100, 'the last frame is faded to a tenth');
  t.match(wavFacts(await readFile(shorter)), { seconds: 0.5 });

  const notWav = join(dir, 'text.wav');
  await writeFile(notWav, 'not audio');
  await t.rejects(fitWavFile(notWav, 1), /not a RIFF WAVE/);
  await writeFile(notWav, 'RIFF....WAVE');
  await t.rejects(fitWavFile(notWav, 1), /without a data chunk/);
});

t.test('ten minutes of audio are fitted on disk without holding them in memory', async (t) => {
  const path = join(await tempDir(t, 'wav-long-'), 'long.wav');
  await wavFile(path, 44_100, 2, 44_100, 1000);
  const before = process.memoryUsage().rss;
  await fitWavFile(path, 600);
  const grown = (process.memoryUsage().rss - before) / MIB;
  const { size } = await stat(path);
  t.equal(size, 44 + 600 * 44_100 * 4, `a ${(size / MIB).toFixed(0)} MiB file`);
  t.ok(grown < 20, `memory grew ${grown.toFixed(1)} MiB`);
  const head = await readFile(path);
  t.equal(head.readUInt32LE(40), 600 * 44_100 * 4, 'the data size in the header');
  t.equal(head.readUInt32LE(4), size - 8, 'the RIFF size in the header');
});

t.test('synchronization points: a stable UUID per measure position with its boxes, then the end', async (t) => {
  const box = { page: 2, x: 10, y: 20, width: 300, height: 40 };
  t.same(synchronizationPoints('score', [0, 1500], 3000, [[], [box]]), [
    { type: 'measure', measureUuid: measureUuid('score', 0), time: 0, boxes: [] },
    { type: 'measure', measureUuid: measureUuid('score', 1), time: 1.5, boxes: [box] },
    { type: 'end', time: 3 },
  ]);
  t.equal(measureUuid('score', 1), measureUuid('score', 1), 'the same position, the same UUID');
  t.not(measureUuid('score', 1), measureUuid('other', 1));
});

t.test('the JSON form keeps the element tree, attributes and lists', async (t) => {
  const json = JSON.parse(musicXmlToJson('<score-partwise version="3.1"><part id="P1"><measure number="1"><note><rest/></note><note><pitch><step>C</step></pitch></note></measure></part></score-partwise>')) as unknown;
  t.same(json, { 'score-partwise': { $version: '3.1', part: [{ $id: 'P1', measure: [{ $number: '1', note: [{ rest: '' }, { pitch: { step: 'C' } }] }] }] } });
});
