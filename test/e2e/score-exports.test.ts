/**
 * Exports of a revision in every 2.13.0 format, produced by the running service (verovio,
 * resvg, FluidSynth and LAME) and checked for what they are by independent readers: the MIDI
 * parses and plays the score's notes, the PNG decodes to a page with ink on it, the audio decodes
 * to sound of the music's length, the synchronization points follow it; signed file URLs, the
 * cache and `onlyCached`; exports of a large score while the API keeps answering.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { parseMidi } from 'midi-file';
import { PNG } from 'pngjs';
import t from 'tap';
import { mp3Facts, wavFacts } from '../support/audio.js';
import { generatedPitch, generatedScore } from '../support/generated-score.js';
import { issueToken as token, scoreApiClient, scoreServiceEnv } from '../support/score-api-client.js';
import { startService, type Service } from '../support/service-harness.js';
import { tempDir } from '../support/temp-dir.js';

const XML = readFileSync(new URL('../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');

const client = (service: Service, bearer: string | undefined) => scoreApiClient(service.baseUrl, bearer);

/** Notes the MIDI file plays, as MIDI key numbers in the order they start. */
function midiNotes(bytes: Uint8Array): number[] {
  const midi = parseMidi(bytes);
  const notes: Array<{ at: number; key: number }> = [];
  for (const track of midi.tracks) {
    let at = 0;
    for (const event of track) {
      at += event.deltaTime;
      if (event.type === 'noteOn' && event.velocity > 0) notes.push({ at, key: event.noteNumber });
    }
  }
  return notes.sort((a, b) => a.at - b.at || a.key - b.key).map((note) => note.key);
}

t.test('every format of a revision, produced for real and cached', async (t) => {
  const dataDir = await tempDir(t, 'score-exports-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env });
  const alice = client(service, await token(env, 'alice', 'scores'));
  const created = await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML });
  t.equal(created.status, 200);
  const scoreId = (created.json() as { id: string }).id;
  const revisionId = ((await alice.call('GET', `/v2/scores/${scoreId}/revisions/last`)).json() as { id: string }).id;
  const base = `/v2/scores/${scoreId}/revisions/${revisionId}`;

  t.equal((await alice.call('GET', `${base}/midi?onlyCached=true`)).status, 404, 'onlyCached: nothing produced yet');
  t.match((await alice.call('GET', `${base}/wav?onlyCached=true`)).json(), { code: 'NOT_FOUND', param: 'onlyCached' });

  const midi = await alice.call('GET', `${base}/midi`);
  t.equal(midi.status, 200);
  t.equal(midi.type, 'audio/midi');
  t.same(midiNotes(midi.bytes), [60, 67], 'the MIDI plays C4 then G4, the two notes of the score');

  const png = await alice.call('GET', `${base}/thumbnail.png`);
  t.equal(png.type, 'image/png');
  const image = PNG.sync.read(Buffer.from(png.bytes));
  t.equal(image.width, 600, 'thumbnail width');
  t.equal(image.height, Math.round((600 * 2970) / 2100), 'an A4 page in proportion');
  let ink = 0;
  for (let i = 0; i < image.data.length; i += 4) if ((image.data[i] as number) < 128) ink++;
  t.ok(ink > 500, `the first page has notation drawn on it (${ink} dark pixels)`);
  t.ok(ink < image.width * image.height * 0.2, 'and is mostly paper');

  const wav = await alice.call('GET', `${base}/wav`);
  t.equal(wav.type, 'audio/wav');
  const wavAudio = wavFacts(wav.bytes);
  t.match(wavAudio, { channels: 2, sampleRate: 44100 });
  t.equal(wavAudio.seconds, 4, 'two whole notes at 120 quarter notes a minute last 4 s');
  t.ok(wavAudio.rms > 0.003, `sound in it (rms ${wavAudio.rms.toFixed(4)})`);

  const mp3 = await alice.call('GET', `${base}/mp3`);
  t.equal(mp3.type, 'audio/mp3');
  const mp3Audio = mp3Facts(mp3.bytes);
  t.ok(Math.abs(mp3Audio.seconds - 4) < 0.03, `the MP3 decodes to 4 s of audio (${mp3Audio.seconds} s)`);
  t.ok(mp3Audio.rms > 0.003, `with sound in it (rms ${mp3Audio.rms.toFixed(4)})`);

  const sync = await alice.call('GET', `${base}/synchronizationPoints`);
  t.equal(sync.type, 'application/json');
  const points = sync.json() as Array<{ type: string; time: number; measureUuid?: string }>;
  t.match(points, [
    { type: 'measure', time: 0, measureUuid: /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
    { type: 'measure', time: 2 },
    { type: 'end', time: 4 },
  ]);
  t.equal(points.length, 3, 'a point per measure and the end');
  t.equal(points.at(-1)?.time, wavAudio.seconds, 'the points end where the audio does');

  const json = await alice.call('GET', `${base}/json`);
  t.equal(json.type, 'application/json');
  t.match(json.json(), { 'score-partwise': { $version: '3.1', 'part-list': { 'score-part': [{ $id: 'P1', 'part-name': 'Piano' }] }, part: [{ $id: 'P1', measure: [{ $number: '1' }, { $number: '2', note: [{ pitch: { step: 'G', octave: '4' } }] }] }] } });

  const mxl = await alice.call('GET', `${base}/mxl`);
  const roundTrip = await alice.call('POST', '/v2/scores', { privacy: 'private', data: Buffer.from(mxl.bytes).toString('base64'), dataEncoding: 'base64' });
  const copyId = (roundTrip.json() as { id: string }).id;
  t.equal(strFromU8((await alice.call('GET', `/v2/scores/${copyId}/revisions/last/xml`)).bytes), XML, 'MusicXML round trip: exported .mxl imported again gives the same document');
  t.equal(strFromU8(unzipSync(mxl.bytes)['score.xml'] as Uint8Array), XML);

  for (const file of ['score.mid', 'thumbnail.png', 'audio.wav', 'audio.mp3', 'synchronizationPoints.json', 'score.json', 'score.mxl']) {
    t.ok(existsSync(join(dataDir, 'scores', 'exports', revisionId, file)), `${file} is cached under DATA_DIR`);
  }
  t.equal((await alice.call('GET', `${base}/midi?onlyCached=true`)).status, 200, 'onlyCached: produced before');
  t.same((await alice.call('GET', `${base}/wav`)).bytes, wav.bytes, 'a cached export is the same file');

  const linked = await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/mp3?url=true`);
  t.equal(linked.status, 200);
  const { url } = linked.json() as { url: string };
  t.match(url, new RegExp(`^${service.baseUrl}/v2/files/scores/${scoreId}/revisions/${revisionId}/mp3\\?expires=\\d+&signature=[0-9a-f]{64}$`), 'a signed link to this revision, on this service');
  const anonymous = client(service, undefined);
  const viaLink = await anonymous.call('GET', url);
  t.equal(viaLink.status, 200, 'the link needs no token');
  t.same(viaLink.bytes, mp3.bytes);
  t.equal(viaLink.type, 'audio/mp3');
  const forged = await anonymous.call('GET', url.replace(/signature=[0-9a-f]/, (s) => (s.endsWith('0') ? `${s.slice(0, -1)}1` : `${s.slice(0, -1)}0`)));
  t.equal(forged.status, 403, 'a changed signature is refused');
  t.equal((await anonymous.call('GET', url.replace('/mp3?', '/wav?'))).status, 403, 'the signature is for one file only');

  t.match((await alice.call('GET', `${base}/docx`)).json(), { code: 'BAD_REQUEST', param: 'format' });
  t.match((await alice.call('GET', `${base}/midi?url=maybe`)).json(), { code: 'BAD_REQUEST', param: 'url' });

  t.equal((await alice.call('DELETE', `/v2/scores/${scoreId}?now=true`)).status, 204);
  t.notOk(existsSync(join(dataDir, 'scores', 'exports', revisionId)), 'deleting a score for good removes its files');
  t.equal((await anonymous.call('GET', url)).status, 404, 'and its links lead nowhere');
});

t.test('a large score exports while the API goes on answering; concurrent requests share one job', async (t) => {
  const dataDir = await tempDir(t, 'score-exports-large-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env, files: { 'basic.yaml': 'domain: basic\ndescriptors:\n  - key: key1\n    rate_limit: {unit: second, requests_per_unit: 1000}\n' } });
  const alice = client(service, await token(env, 'alice', 'scores,account.public_profile'));
  const measures = 120;
  const created = await alice.call('POST', '/v2/scores', { privacy: 'private', data: generatedScore({ title: 'Long', measures, parts: 8 }) });
  const scoreId = (created.json() as { id: string }).id;

  const order: string[] = [];
  const exports = Array.from({ length: 4 }, () => alice.call('GET', `/v2/scores/${scoreId}/revisions/last/midi`).then((r) => (order.push('export'), r)));
  const me = await alice.call('GET', '/v2/me?onlyId=true').then((r) => (order.push('me'), r));
  t.equal(me.status, 200);
  const decision = await service.post({ domain: 'basic', descriptors: [{ entries: [{ key: 'key1', value: 'a' }] }] });
  order.push('decision');
  t.equal(decision.status, 200);
  const results = await Promise.all(exports);
  t.same(order.slice(0, 2), ['me', 'decision'], 'a request to the API and a decision are answered while the engraving runs');
  for (const result of results) t.same(result.bytes, results[0]?.bytes, 'the concurrent requests get the one file');
  const notes = midiNotes(results[0]?.bytes ?? new Uint8Array());
  t.equal(notes.length, measures * 4 * 8, 'every note of every part is in the MIDI');
  t.same(notes.slice(0, 8), Array(8).fill(generatedPitch(0).midi), 'the parts start together');
  const sync = (await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/synchronizationPoints`)).json() as Array<{ time: number }>;
  t.equal(sync.length, measures + 1);
  t.ok(sync.every((point, i) => i === 0 || point.time > (sync[i - 1] as { time: number }).time), 'synchronization points increase');
  t.equal(sync.at(-1)?.time, measures * 2, 'and end with the music');
});

t.test('without FluidSynth the audio formats say what is missing; the others still work', async (t) => {
  const dataDir = await tempDir(t, 'score-exports-tools-');
  const env = await scoreServiceEnv(dataDir);
  const service = await startService(t, { env: { ...env, SCORES_FLUIDSYNTH: '/nonexistent/fluidsynth' } });
  const alice = client(service, await token(env, 'alice', 'scores'));
  const scoreId = ((await alice.call('POST', '/v2/scores', { privacy: 'private', data: XML })).json() as { id: string }).id;
  const wav = await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/wav`);
  t.equal(wav.status, 501);
  t.match(wav.json(), { code: 'NOT_IMPLEMENTED', message: /\/nonexistent\/fluidsynth is not installed/, param: 'format' });
  t.equal((await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/mp3`)).status, 501);
  t.equal((await alice.call('GET', `/v2/scores/${scoreId}/revisions/last/midi`)).status, 200);
});
