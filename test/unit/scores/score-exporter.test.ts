/**
 * The exporter with the real engraver and synthesiser on this thread: concurrent requests for the
 * files of one engraving start it once; later ones read the cache; the pieces it builds on
 * (WAV length fitting, synchronization points, the JSON form) behave.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { AudioSynthesizer, musicXmlToJson, renderNotation, ScoreExporter, type NotationRenderer } from '../../../src/scores/exports/index.js';
import { measureUuid, synchronizationPoints } from '../../../src/scores/exports/sync-points.js';
import { durationOf, fitToDuration, readWav, writeWav } from '../../../src/scores/exports/wav.js';
import { tempDir } from '../../support/temp-dir.js';

const XML = readFileSync(new URL('../../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');

function countingRenderer(): NotationRenderer & { engravings: number } {
  const renderer = {
    engravings: 0,
    render: (xml: string) => {
      renderer.engravings++;
      return renderNotation(xml);
    },
    toJson: (xml: string) => Promise.resolve(musicXmlToJson(xml)),
    close: () => Promise.resolve(),
  };
  return renderer;
}

t.test('concurrent exports of one engraving run it once; later ones come from the cache', async (t) => {
  const renderer = countingRenderer();
  const audio = new AudioSynthesizer({ fluidsynth: 'fluidsynth', lame: 'lame', soundfont: '/usr/share/sounds/sf2/default-GM.sf2', sampleRate: 22050, mp3BitrateKbps: 64, nice: 0 });
  const exporter = new ScoreExporter(await tempDir(t, 'exporter-'), renderer, audio);
  let reads = 0;
  const source = { scoreId: 's', revisionId: 'r', musicXml: () => (reads++, Promise.resolve(XML)) };
  const files = await Promise.all([exporter.export(source, 'midi'), exporter.export(source, 'thumbnail.png'), exporter.export(source, 'midi'), exporter.export(source, 'synchronizationPoints'), exporter.export(source, 'wav')]);
  t.equal(renderer.engravings, 1, 'one engraving served MIDI, thumbnail, timing and audio');
  t.same(files[0], files[2], 'both MIDI requests got the same file');
  t.equal(durationOf(readWav(files[4] as Uint8Array)), 4, 'the audio lasts as long as the music, at the sample rate asked for');
  await exporter.export(source, 'thumbnail.png');
  t.equal(renderer.engravings, 1, 'a cached file is not produced again');
  const readsBefore = reads;
  await exporter.export(source, 'mp3');
  t.equal(reads, readsBefore, 'the MP3 comes from the cached WAV, without reading the score again');
  t.ok(await exporter.cached('r', 'mp3'));
  await exporter.forget(['r']);
  t.equal(await exporter.cached('r', 'mp3'), undefined, 'forgotten revisions lose their files');
});

t.test('audio is cut or padded to the length asked for, with a fade at the end', async (t) => {
  const samples = new Int16Array(2 * 100).fill(1000);
  const audio = { sampleRate: 100, channels: 2, samples };
  const longer = fitToDuration(audio, 1.5, 0.1);
  t.equal(durationOf(longer), 1.5);
  t.equal(longer.samples[2 * 99], 1000, 'the audio is kept');
  t.equal(longer.samples[2 * 100], 0, 'then silence');
  const shorter = fitToDuration(audio, 0.5, 0.1);
  t.equal(durationOf(shorter), 0.5);
  t.equal(shorter.samples[0], 1000);
  t.equal(shorter.samples[2 * 49], 100, 'the last frame is faded to a tenth');
  const copy = readWav(writeWav(shorter));
  t.same({ ...copy, samples: Array.from(copy.samples) }, { ...shorter, samples: Array.from(shorter.samples) }, 'WAV written and read back');
  t.throws(() => readWav(new TextEncoder().encode('RIFF....WAVE')), /without a data chunk/);
  t.throws(() => readWav(new TextEncoder().encode('not audio')), /not a RIFF WAVE/);
});

t.test('synchronization points: a stable UUID per measure position, then the end', async (t) => {
  t.same(synchronizationPoints('score', [0, 1500], 3000), [
    { type: 'measure', measureUuid: measureUuid('score', 0), time: 0 },
    { type: 'measure', measureUuid: measureUuid('score', 1), time: 1.5 },
    { type: 'end', time: 3 },
  ]);
  t.equal(measureUuid('score', 1), measureUuid('score', 1), 'the same position, the same UUID');
  t.not(measureUuid('score', 1), measureUuid('other', 1));
});

t.test('the JSON form keeps the element tree, attributes and lists', async (t) => {
  const json = JSON.parse(musicXmlToJson('<score-partwise version="3.1"><part id="P1"><measure number="1"><note><rest/></note><note><pitch><step>C</step></pitch></note></measure></part></score-partwise>')) as unknown;
  t.same(json, { 'score-partwise': { $version: '3.1', part: [{ $id: 'P1', measure: [{ $number: '1', note: [{ rest: '' }, { pitch: { step: 'C' } }] }] }] } });
});
