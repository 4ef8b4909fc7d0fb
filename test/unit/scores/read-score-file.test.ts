/**
 * MusicXML uploads as the score API reads them: plain and compressed, the errors for what is
 * neither, and the bounds on what an .mxl may inflate to (zip bombs, lying sizes).
 */
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import t, { type Test } from 'tap';
import { ServiceError } from '../../../src/errors/index.js';
import { readScoreFile, type MusicXmlLimits } from '../../../src/scores/musicxml/read-score-file.js';
import { deflatedEntry, mxlOf, zerosEntry, type RawZipEntry } from '../../support/mxl-builder.js';

const XML = readFileSync(new URL('../../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');
const MIB = 1024 * 1024;
/** The defaults of SCORES_MAX_MUSICXML_BYTES and SCORES_MXL_MAX_RATIO. */
const LIMITS: MusicXmlLimits = { maxBytes: 16 * MIB, maxInflateRatio: 200 };
const CONTAINER = '<?xml version="1.0"?><container><rootfiles><rootfile full-path="music/score.musicxml"/></rootfiles></container>';

function message(t: Test, outcome: unknown): string {
  if (!(outcome instanceof ServiceError)) throw new Error('expected a refusal');
  t.equal(outcome.code, 'SC_INVALID_MUSICXML');
  t.equal(outcome.details?.param, 'data');
  return outcome.message;
}

t.test('plain MusicXML: the document, its work title and the measures of the first part', async (t) => {
  const read = readScoreFile(strToU8(XML), LIMITS);
  t.same(read, { xml: XML, title: 'Two Measures', numberMeasures: 2 });
  const untitled = XML.replace(/<work>.*<\/work>/, '');
  t.match(readScoreFile(strToU8(untitled), LIMITS), { title: 'Ignored When A Work Title Exists' }, 'the movement title when there is no work title');
});

t.test('compressed MusicXML (.mxl): the score the container names', async (t) => {
  const mxl = zipSync({ mimetype: strToU8('application/vnd.recordare.musicxml'), 'META-INF/container.xml': strToU8(CONTAINER), 'music/score.musicxml': strToU8(XML) });
  t.same(readScoreFile(mxl, LIMITS), { xml: XML, title: 'Two Measures', numberMeasures: 2 });
  const missing = zipSync({ 'META-INF/container.xml': strToU8(CONTAINER) });
  t.equal(message(t, readScoreFile(missing, LIMITS)), 'the .mxl archive has no music/score.musicxml, which META-INF/container.xml names');
  t.equal(message(t, readScoreFile(zipSync({ 'score.xml': strToU8(XML) }), LIMITS)), 'the .mxl archive has no META-INF/container.xml');
  const truncated = zipSync({ 'META-INF/container.xml': strToU8(CONTAINER), 'music/score.musicxml': strToU8(XML) }).slice(0, 60);
  t.match(message(t, readScoreFile(truncated, LIMITS)), /^the \.mxl archive cannot be read: /);
});

t.test('what is not MusicXML is refused with the problem and its place', async (t) => {
  t.match(message(t, readScoreFile(strToU8('<score-partwise><part></score-partwise>'), LIMITS)), /^the MusicXML is not well-formed XML: 1:\d+: unexpected close tag/);
  t.equal(message(t, readScoreFile(strToU8('<html><body/></html>'), LIMITS)), 'the root element is <html>; MusicXML has <score-partwise> or <score-timewise>');
  t.match(message(t, readScoreFile(strToU8('just text'), LIMITS)), /^the MusicXML is not well-formed XML: /);
  t.equal(message(t, readScoreFile(new Uint8Array([0x3c, 0x61, 0xff, 0x3e]), LIMITS)), 'the MusicXML is not valid UTF-8');
});

function refusal(t: Test, outcome: unknown): string {
  if (!(outcome instanceof ServiceError)) throw new Error('expected a refusal');
  t.equal(outcome.code, 'SC_SCORE_TOO_LARGE');
  t.equal(outcome.details?.param, 'data');
  return outcome.message;
}

function rssMib(): number {
  return process.memoryUsage().rss / MIB;
}

/** The two-measure score with `padding` spaces inside it: well-formed, and as compressible as a padding bomb. */
function padded(padding: number): string {
  return XML.replace('<part-list>', `${' '.repeat(padding)}<part-list>`);
}

t.test('an .mxl carrying a GiB of zeros beside its score reads the score and never inflates the rest', async (t) => {
  const bomb = zerosEntry('junk.bin', 1024);
  const corrupt: RawZipEntry = { name: 'corrupt.bin', method: 8, data: new Uint8Array([0xff, 0xff, 0xff, 0xff]), declaredSize: 10, crc: 0 };
  const unknown: RawZipEntry = { ...deflatedEntry('unknown.bin', 'x'), method: 99 };
  const mxl = mxlOf('score.xml', [bomb, corrupt, unknown, deflatedEntry('score.xml', XML)]);
  t.ok(mxl.byteLength < 1.2 * MIB, `the archive is ${(mxl.byteLength / MIB).toFixed(2)} MiB`);
  const before = rssMib();
  t.same(readScoreFile(mxl, LIMITS), { xml: XML, title: 'Two Measures', numberMeasures: 2 }, 'the score, though other entries would not inflate at all');
  t.ok(rssMib() - before < 100, `memory grew ${(rssMib() - before).toFixed(0)} MiB, not a GiB`);
});

t.test('a rootfile that inflates past SCORES_MAX_MUSICXML_BYTES is refused at the bound, whatever it declares', async (t) => {
  const before = rssMib();
  const gib = mxlOf('score.xml', [zerosEntry('score.xml', 1024)]);
  t.equal(refusal(t, readScoreFile(gib, LIMITS)), 'score.xml declares 1073741824 bytes uncompressed, more than SCORES_MAX_MUSICXML_BYTES (16777216 bytes)', 'a GiB of zeros, declared as such, is refused unread');
  // A ratio bound this high leaves the byte bound as the one that applies.
  const byBytesOnly = { ...LIMITS, maxInflateRatio: 100_000 };
  const lying = mxlOf('score.xml', [{ ...zerosEntry('score.xml', 64), declaredSize: 1000 }]);
  t.equal(refusal(t, readScoreFile(lying, byBytesOnly)), 'score.xml inflates to more than SCORES_MAX_MUSICXML_BYTES (16777216 bytes)', '64 MiB declared as 1000 bytes: inflating stops at the bound');
  t.ok(rssMib() - before < 100, `memory grew ${(rssMib() - before).toFixed(0)} MiB`);
  const declaredHuge: RawZipEntry = { name: 'score.xml', method: 8, data: new Uint8Array([0xff, 0xff]), declaredSize: 100 * MIB, crc: 0 };
  t.match(refusal(t, readScoreFile(mxlOf('score.xml', [declaredHuge]), byBytesOnly)), /^score\.xml declares 104857600 bytes uncompressed, more than /, 'a declared size past the bound is refused before inflating (the data is not even deflate)');
  const stored: RawZipEntry = { name: 'score.xml', method: 0, data: strToU8(padded(2000)), declaredSize: 10, crc: 0 };
  t.match(refusal(t, readScoreFile(mxlOf('score.xml', [stored]), { ...LIMITS, maxBytes: 2048 })), /SCORES_MAX_MUSICXML_BYTES \(2048 bytes\)/, 'a stored entry is bounded too');
});

t.test('past 1 MiB, an entry may inflate to SCORES_MXL_MAX_RATIO times its compressed size', async (t) => {
  const bomb = deflatedEntry('score.xml', padded(2 * MIB));
  t.ok(bomb.data.byteLength * 200 < MIB, `2 MiB of padding compresses to ${bomb.data.byteLength} bytes`);
  t.equal(refusal(t, readScoreFile(mxlOf('score.xml', [bomb]), LIMITS)), `score.xml declares ${bomb.declaredSize} bytes uncompressed, more than SCORES_MXL_MAX_RATIO (200) times its ${bomb.data.byteLength} compressed bytes`);
  const lying = mxlOf('score.xml', [{ ...bomb, declaredSize: 1000 }]);
  t.equal(refusal(t, readScoreFile(lying, LIMITS)), `score.xml inflates to more than SCORES_MXL_MAX_RATIO (200) times its ${bomb.data.byteLength} compressed bytes`, 'declared small, it is stopped while inflating');
  t.match(readScoreFile(mxlOf('score.xml', [deflatedEntry('score.xml', padded(MIB - 4096))]), LIMITS), { title: 'Two Measures' }, 'the same padding under 1 MiB is harmless and accepted');
  t.match(readScoreFile(mxlOf('score.xml', [bomb]), { ...LIMITS, maxInflateRatio: 10_000 }), { title: 'Two Measures' }, 'and a higher ratio lets it through');
});

t.test('plain MusicXML larger than SCORES_MAX_MUSICXML_BYTES is refused', async (t) => {
  const xml = strToU8(padded(2000));
  t.equal(refusal(t, readScoreFile(xml, { ...LIMITS, maxBytes: 2048 })), `the MusicXML is ${xml.byteLength} bytes, more than SCORES_MAX_MUSICXML_BYTES (2048)`);
  t.match(readScoreFile(xml, { ...LIMITS, maxBytes: xml.byteLength }), { title: 'Two Measures' }, 'a document of exactly the limit is accepted');
});

t.test('archives that are not zips as written are refused by what is wrong', async (t) => {
  const unknown: RawZipEntry = { ...deflatedEntry('score.xml', XML), method: 99 };
  t.equal(message(t, readScoreFile(mxlOf('score.xml', [unknown]), LIMITS)), 'the .mxl archive cannot be read: score.xml uses compression method 99; .mxl entries are stored or deflated');
  const corrupt: RawZipEntry = { name: 'score.xml', method: 8, data: new Uint8Array([0xff, 0xff, 0xff, 0xff]), declaredSize: 10, crc: 0 };
  t.match(message(t, readScoreFile(mxlOf('score.xml', [corrupt]), LIMITS)), /^the \.mxl archive cannot be read: score\.xml cannot be inflated: /);
  const encrypted = Buffer.from(mxlOf('score.xml', [deflatedEntry('score.xml', XML)]));
  const directory = encrypted.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
  encrypted.writeUInt16LE(encrypted.readUInt16LE(directory + 8) | 1, directory + 8);
  t.equal(message(t, readScoreFile(encrypted, LIMITS)), 'the .mxl archive cannot be read: score.xml is encrypted');
});
