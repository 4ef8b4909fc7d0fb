/**
 * Audio exports built to exhaust the service, against the real process: music too long to
 * synthesise, audio exports all at once, and a long WAV. The first is refused before FluidSynth
 * starts, the others run a bounded number at a time (or are refused at once, 503), and a WAV is
 * written to disk and streamed, never held in the service's memory.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { wavFacts } from '../support/audio.js';
import { generatedScore } from '../support/generated-score.js';
import { childrenNamed } from '../support/process-memory.js';
import { peakMiB, scoreOf, scoreServiceProcess, type ScoreServiceProcess } from '../support/score-service-process.js';

const MIB = 1024 * 1024;

/** One service with the default settings for the tests that need nothing else (it stops when the file's tests end). */
let defaults: Promise<ScoreServiceProcess> | undefined;
const defaultService = () => (defaults ??= scoreServiceProcess(t));

t.test('audio longer than SCORES_MAX_AUDIO_DURATION is refused before synthesis', async (t) => {
  const service = await defaultService();
  const slow = await scoreOf(service.alice, generatedScore({ title: 'Slow', measures: 50, parts: 1, tempo: 6 }));
  const wav = await service.alice.call('GET', `${slow.base}/wav`);
  t.equal(wav.status, 422);
  t.same(wav.json(), { code: 'EXPORT_OVER_LIMIT', message: `the wav export of revision ${slow.revisionId} is refused: the music lasts 2000 s, longer than SCORES_MAX_AUDIO_DURATION (600 s)`, param: 'format' });
  t.equal((await service.alice.call('GET', `${slow.base}/mp3`)).status, 422, 'and its MP3');
  t.notOk(existsSync(join(service.dataDir, 'scores', 'exports', slow.revisionId, 'audio.wav')), 'no audio was made');
  t.equal((await service.alice.call('GET', `${slow.base}/midi`)).status, 200, 'its MIDI is still there');
});

t.test('SCORES_SYNTH_CONCURRENCY FluidSynth runs at once; past SCORES_EXPORT_MAX_QUEUED more wait, the rest are 503', async (t) => {
  const service = await scoreServiceProcess(t, { SCORES_SYNTH_CONCURRENCY: '1', SCORES_EXPORT_MAX_QUEUED: '1' });
  const scores = [];
  for (const title of ['One', 'Two', 'Three']) {
    const score = await scoreOf(service.alice, generatedScore({ title, measures: 30, parts: 1 }));
    t.equal((await service.alice.call('GET', `${score.base}/midi`)).status, 200, `${title} engraved first, so its audio is all that is left`);
    scores.push(score);
  }
  const pid = service.proc.child.pid as number;
  let most = 0;
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      most = Math.max(most, (await childrenNamed(pid, 'fluidsynth')).length);
      // A synthesis lasts seconds; a look every few milliseconds sees each one.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const answers = await Promise.all(scores.map((score) => service.alice.call('GET', `${score.base}/wav`)));
  watching = false;
  await watcher;
  t.same(answers.map((answer) => answer.status).sort(), [200, 200, 503], 'one synthesised, one waited its turn, one refused');
  t.match(answers.find((answer) => answer.status === 503)?.json(), { code: 'SERVICE_UNAVAILABLE', message: /SCORES_EXPORT_MAX_QUEUED \(1\) allows; try again later$/, param: 'format' });
  t.equal(most, 1, 'never more than one FluidSynth at a time');
});

t.test('a long WAV is written to disk and streamed to the client, never held in the service', async (t) => {
  const service = await defaultService();
  const long = await scoreOf(service.alice, generatedScore({ title: 'Three minutes', measures: 90, parts: 1 }));
  t.equal((await service.alice.call('GET', `${long.base}/midi`)).status, 200);
  const before = await peakMiB(service.proc);
  const wav = await service.alice.call('GET', `${long.base}/wav`);
  const grown = (await peakMiB(service.proc)) - before;
  const size = wav.bytes.byteLength;
  t.ok(size > 30 * MIB, `a ${(size / MIB).toFixed(1)} MiB WAV`);
  t.match(wavFacts(wav.bytes), { channels: 2, sampleRate: 44100, seconds: 180 }, 'three minutes of audio, as long as the music');
  t.ok(grown < size / MIB / 2, `the service's peak memory grew ${grown.toFixed(1)} MiB`);
  const again = await service.alice.call('GET', `${long.base}/wav`);
  t.equal(again.bytes.byteLength, size, 'the cached file is streamed again');
});
