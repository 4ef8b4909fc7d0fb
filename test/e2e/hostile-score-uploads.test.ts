/**
 * Score uploads built to exhaust the service, against the real process: zip bombs in an .mxl
 * (beside the score, or as the score), declared sizes that lie, and documents past
 * SCORES_MAX_MUSICXML_BYTES. Each is answered quickly in the API's error form (or, for entries the
 * score does not need, not inflated at all), and the process's peak memory (VmHWM) stays far below
 * what the archive would inflate to.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { deflatedEntry, mxlOf, paddedEntry, zerosEntry } from '../support/mxl-builder.js';
import type { ScoreApiClient } from '../support/score-api-client.js';
import { peakMiB, scoreServiceProcess } from '../support/score-service-process.js';

const XML = readFileSync(new URL('../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');
const MIB = 1024 * 1024;
/** The score cut where padding can go without breaking it: between the XML declaration's lines and the rest. */
const [HEAD, REST] = [XML.slice(0, XML.indexOf('<score-partwise')), XML.slice(XML.indexOf('<score-partwise'))];

function upload(alice: ScoreApiClient, mxl: Uint8Array) {
  return alice.call('POST', '/v2/scores', { privacy: 'private', data: Buffer.from(mxl).toString('base64'), dataEncoding: 'base64' });
}

/** Bytes of the score database with its write-ahead log. */
async function databaseBytes(dataDir: string): Promise<number> {
  let bytes = 0;
  for (const name of ['scores.sqlite', 'scores.sqlite-wal']) bytes += await stat(join(dataDir, 'scores', name)).then((s) => s.size, () => 0);
  return bytes;
}

t.test('an .mxl carrying three GiB of zeros beside its score is read without inflating them', async (t) => {
  const { proc, alice } = await scoreServiceProcess(t);
  const bomb = zerosEntry('padding-1.bin', 1024);
  const mxl = mxlOf('score.xml', [deflatedEntry('score.xml', XML), bomb, { ...bomb, name: 'padding-2.bin' }, { ...bomb, name: 'padding-3.bin' }]);
  t.ok(mxl.byteLength < 3.5 * MIB, `${(mxl.byteLength / MIB).toFixed(1)} MiB that would inflate to 3 GiB`);
  const before = await peakMiB(proc);
  const started = Date.now();
  const created = await upload(alice, mxl);
  const elapsed = Date.now() - started;
  t.equal(created.status, 200, 'the score is accepted');
  t.ok(elapsed < 2000, `answered in ${elapsed} ms`);
  const grown = (await peakMiB(proc)) - before;
  t.ok(grown < 150, `the process's peak memory grew ${grown.toFixed(0)} MiB`);
  const { id } = created.json() as { id: string };
  t.equal((await alice.call('GET', `/v2/scores/${id}/revisions/last/xml`)).text, XML, 'the score read from it is the one in the archive');
});

t.test('an .mxl whose score is 100 MiB of padding is refused by SCORES_MAX_MUSICXML_BYTES, and nothing is stored', async (t) => {
  const { proc, alice, dataDir } = await scoreServiceProcess(t);
  const padded = paddedEntry('score.xml', { before: HEAD, fill: 0x20, mebibytes: 100, after: REST });
  t.ok(padded.data.byteLength < 150 * 1024, `the score compresses to ${(padded.data.byteLength / 1024).toFixed(0)} KiB`);
  const databaseBefore = await databaseBytes(dataDir);
  const before = await peakMiB(proc);

  const declared = await upload(alice, mxlOf('score.xml', [padded]));
  t.equal(declared.status, 413);
  t.same(declared.json(), { code: 'PAYLOAD_TOO_LARGE', message: `score.xml declares ${padded.declaredSize} bytes uncompressed, more than SCORES_MAX_MUSICXML_BYTES (16777216 bytes)`, param: 'data' }, 'refused for its declared size, before inflating');
  const lying = await upload(alice, mxlOf('score.xml', [{ ...padded, declaredSize: XML.length }]));
  t.equal(lying.status, 413);
  t.same(lying.json(), { code: 'PAYLOAD_TOO_LARGE', message: 'score.xml inflates to more than SCORES_MAX_MUSICXML_BYTES (16777216 bytes)', param: 'data' }, 'declared small, it is stopped at the bound while inflating');

  const ratioBomb = paddedEntry('score.xml', { before: HEAD, fill: 0x20, mebibytes: 2, after: REST });
  const byRatio = await upload(alice, mxlOf('score.xml', [{ ...ratioBomb, declaredSize: XML.length }]));
  t.same(byRatio.json(), { code: 'PAYLOAD_TOO_LARGE', message: `score.xml inflates to more than SCORES_MXL_MAX_RATIO (200) times its ${ratioBomb.data.byteLength} compressed bytes`, param: 'data' }, 'a smaller bomb is stopped by its compression ratio');

  const grown = (await peakMiB(proc)) - before;
  t.ok(grown < 100, `the process's peak memory grew ${grown.toFixed(0)} MiB`);
  const databaseGrown = (await databaseBytes(dataDir)) - databaseBefore;
  t.ok(databaseGrown < MIB, `the database grew ${databaseGrown} bytes`);
});

t.test('with a small SCORES_MAX_MUSICXML_BYTES, plain and compressed scores past it are refused', async (t) => {
  const { alice } = await scoreServiceProcess(t, { SCORES_MAX_MUSICXML_BYTES: '65536' });
  const plain = `${HEAD}${' '.repeat(70_000)}${REST}`;
  const refusedPlain = await alice.call('POST', '/v2/scores', { privacy: 'private', data: plain });
  t.equal(refusedPlain.status, 413);
  t.same(refusedPlain.json(), { code: 'PAYLOAD_TOO_LARGE', message: `the MusicXML is ${Buffer.byteLength(plain)} bytes, more than SCORES_MAX_MUSICXML_BYTES (65536)`, param: 'data' });
  const padded = paddedEntry('score.xml', { before: HEAD, fill: 0x20, mebibytes: 1, after: REST });
  t.match((await upload(alice, mxlOf('score.xml', [padded]))).json(), { code: 'PAYLOAD_TOO_LARGE', message: /more than SCORES_MAX_MUSICXML_BYTES \(65536 bytes\)$/ });
  t.equal((await upload(alice, mxlOf('score.xml', [deflatedEntry('score.xml', XML)]))).status, 200, 'a score within the limit is accepted');
});
