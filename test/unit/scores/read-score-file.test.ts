/** MusicXML uploads as the score API reads them: plain and compressed, and the errors for what is neither. */
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import t, { type Test } from 'tap';
import { ServiceError } from '../../../src/errors/index.js';
import { readScoreFile } from '../../../src/scores/musicxml/read-score-file.js';

const XML = readFileSync(new URL('../../../../test/fixtures/scores/two-measures.xml', import.meta.url), 'utf8');
const CONTAINER = '<?xml version="1.0"?><container><rootfiles><rootfile full-path="music/score.musicxml"/></rootfiles></container>';

function message(t: Test, outcome: unknown): string {
  if (!(outcome instanceof ServiceError)) throw new Error('expected a refusal');
  t.equal(outcome.code, 'SC_INVALID_MUSICXML');
  t.equal(outcome.details?.param, 'data');
  return outcome.message;
}

t.test('plain MusicXML: the document, its work title and the measures of the first part', async (t) => {
  const read = readScoreFile(strToU8(XML));
  t.same(read, { xml: XML, title: 'Two Measures', numberMeasures: 2 });
  const untitled = XML.replace(/<work>.*<\/work>/, '');
  t.match(readScoreFile(strToU8(untitled)), { title: 'Ignored When A Work Title Exists' }, 'the movement title when there is no work title');
});

t.test('compressed MusicXML (.mxl): the score the container names', async (t) => {
  const mxl = zipSync({ mimetype: strToU8('application/vnd.recordare.musicxml'), 'META-INF/container.xml': strToU8(CONTAINER), 'music/score.musicxml': strToU8(XML) });
  t.same(readScoreFile(mxl), { xml: XML, title: 'Two Measures', numberMeasures: 2 });
  const missing = zipSync({ 'META-INF/container.xml': strToU8(CONTAINER) });
  t.equal(message(t, readScoreFile(missing)), 'the .mxl archive has no music/score.musicxml, which META-INF/container.xml names');
  t.equal(message(t, readScoreFile(zipSync({ 'score.xml': strToU8(XML) }))), 'the .mxl archive has no META-INF/container.xml');
  const truncated = zipSync({ 'META-INF/container.xml': strToU8(CONTAINER), 'music/score.musicxml': strToU8(XML) }).slice(0, 60);
  t.match(message(t, readScoreFile(truncated)), /^the \.mxl archive cannot be read: /);
});

t.test('what is not MusicXML is refused with the problem and its place', async (t) => {
  t.match(message(t, readScoreFile(strToU8('<score-partwise><part></score-partwise>'))), /^the MusicXML is not well-formed XML: 1:\d+: unexpected close tag/);
  t.equal(message(t, readScoreFile(strToU8('<html><body/></html>'))), 'the root element is <html>; MusicXML has <score-partwise> or <score-timewise>');
  t.match(message(t, readScoreFile(strToU8('just text'))), /^the MusicXML is not well-formed XML: /);
  t.equal(message(t, readScoreFile(new Uint8Array([0x3c, 0x61, 0xff, 0x3e]))), 'the MusicXML is not valid UTF-8');
});
