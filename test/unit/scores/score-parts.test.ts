/**
 * Reducing a MusicXML document to some of its parts: the others cut out (partwise and timewise)
 * or muted (rests of the same length, so the timing stays), the rest of the document untouched.
 */
import t from 'tap';
import { readMusicXml } from '../../../src/scores/musicxml/read-score-file.js';
import { keepParts, scorePartIds } from '../../../src/scores/musicxml/score-parts.js';
import { generatedScore } from '../../support/generated-score.js';

const THREE = generatedScore({ title: 'Three', measures: 2, parts: 3 });

t.test('the part ids, in score order', async (t) => {
  t.same(scorePartIds(THREE), ['P1', 'P2', 'P3']);
});

t.test('removed: only the kept parts remain, in the part list and the music', async (t) => {
  const kept = keepParts(THREE, new Set(['P1', 'P3']), 'removed');
  t.same(scorePartIds(kept), ['P1', 'P3']);
  t.notMatch(kept, /id="P2"/, 'no trace of the removed part');
  t.equal(kept.match(/<part id=/g)?.length, 2);
  t.match(readMusicXml(kept), { title: 'Three', numberMeasures: 2 }, 'still a readable score with its title and measures');
  t.equal(keepParts(THREE, new Set(['P1', 'P2', 'P3']), 'removed'), THREE, 'keeping every part changes nothing');
});

t.test('muted: the other parts keep their measures and durations, with rests for notes', async (t) => {
  const chord = THREE.replace('<part id="P2"><measure number="1">', '<part id="P2"><measure number="1"><note><grace/><pitch><step>D</step><octave>4</octave></pitch><type>eighth</type></note>');
  const muted = keepParts(chord, new Set(['P1']), 'muted');
  t.same(scorePartIds(muted), ['P1', 'P2', 'P3'], 'every part stays listed');
  const part = (id: string) => muted.slice(muted.indexOf(`<part id="${id}">`), muted.indexOf('</part>', muted.indexOf(`<part id="${id}">`)));
  t.equal(part('P1').match(/<pitch>/g)?.length, 8, 'the kept part plays its eight notes');
  for (const id of ['P2', 'P3']) {
    t.notMatch(part(id), /<pitch>|<grace/, `${id} plays nothing`);
    t.equal(part(id).match(/<rest\/><duration>1<\/duration>/g)?.length, 8, `${id} rests as long as it played`);
  }
});

t.test('timewise scores: the parts inside each measure', async (t) => {
  const timewise = '<score-timewise><part-list><score-part id="A"/><score-part id="B"/></part-list><measure number="1"><part id="A"><note/></part><part id="B"><note/></part></measure><measure number="2"><part id="A"/><part id="B"/></measure></score-timewise>';
  t.equal(keepParts(timewise, new Set(['B']), 'removed'), '<score-timewise><part-list><score-part id="B"/></part-list><measure number="1"><part id="B"><note/></part></measure><measure number="2"><part id="B"/></measure></score-timewise>');
});

t.test('removed: a tempo only the removed parts mark moves to the first kept part, at the start of its measure', async (t) => {
  const mark = (tempo: number) => `<direction><direction-type><words>Allegro</words></direction-type><sound tempo="${tempo}"/></direction>`;
  const doc = (p1m1: string, p1m2: string, p2m2: string) =>
    `<score-partwise><part-list><score-part id="P1"/><score-part id="P2"/><score-part id="P3"/></part-list>` +
    `<part id="P1"><measure number="1">${p1m1}<note/></measure><measure number="2">${p1m2}<note/></measure></part>` +
    `<part id="P2"><measure number="1"><note/></measure><measure number="2">${p2m2}<note/></measure></part>` +
    `<part id="P3"><measure number="1"><note/></measure><measure number="2"><note/></measure></part></score-partwise>`;
  const kept = keepParts(doc(mark(96), mark(132), ''), new Set(['P2', 'P3']), 'removed');
  t.match(kept, '<part id="P2"><measure number="1"><sound tempo="96"/><note/></measure><measure number="2"><sound tempo="132"/><note/>', 'each measure keeps the tempo its removed part marked');
  t.match(kept, '<part id="P3"><measure number="1"><note/></measure>', 'once, in the first kept part');
  const own = keepParts(doc(mark(96), mark(132), mark(60)), new Set(['P2']), 'removed');
  t.equal(own.match(/<sound tempo=/g)?.length, 2, "a measure where the kept part has its own tempo keeps only that one");
  t.match(own, '<measure number="2"><direction><direction-type><words>Allegro</words></direction-type><sound tempo="60"/>');
  t.equal(keepParts(doc(mark(96), '', ''), new Set(['P1', 'P2']), 'removed').match(/<sound tempo=/g)?.length, 1, 'a tempo the kept parts mark is not copied');
  const timewise = '<score-timewise><part-list><score-part id="A"/><score-part id="B"/></part-list><measure number="1"><part id="A"><sound tempo="80"/><note/></part><part id="B"><note/></part></measure></score-timewise>';
  t.equal(keepParts(timewise, new Set(['B']), 'removed'), '<score-timewise><part-list><score-part id="B"/></part-list><measure number="1"><part id="B"><sound tempo="80"/><note/></part></measure></score-timewise>', 'timewise too');
});
