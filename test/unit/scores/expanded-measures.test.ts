/** The measures a score plays once its repeats are expanded: what SCORES_MAX_EXPANDED_MEASURES bounds before engraving. */
import t from 'tap';
import { expandedMeasures } from '../../../src/scores/musicxml/expanded-measures.js';
import { generatedScore } from '../../support/generated-score.js';

const NOTE = '<note><rest/><duration>4</duration></note>';
const forward = '<barline location="left"><repeat direction="forward"/></barline>';
const backward = (times?: number) => `<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward"${times === undefined ? '' : ` times="${times}"`}/></barline>`;

/** A one-part score of the given measures' contents (besides a rest each). */
function partwise(...measures: string[]): string {
  const body = measures.map((extra, i) => `<measure number="${i + 1}">${NOTE}${extra}</measure>`).join('');
  return `<score-partwise version="3.1"><part-list><score-part id="P1"><part-name>P</part-name></score-part></part-list><part id="P1">${body}</part></score-partwise>`;
}

t.test('without repeats, the measures of the first part', async (t) => {
  t.equal(expandedMeasures(generatedScore({ title: 'x', measures: 12, parts: 3 })), 12);
});

t.test('a backward repeat plays its section `times` times, twice by default', async (t) => {
  t.equal(expandedMeasures(partwise(backward(5000))), 5000, 'one measure repeated 5000 times');
  t.equal(expandedMeasures(partwise('', '', backward())), 6, 'three measures from the start, twice');
  t.equal(expandedMeasures(partwise('', forward, '', backward(3), '')), 1 + 3 * 3 + 1, 'from the forward repeat: measures 2-4 three times');
  t.equal(expandedMeasures(partwise('', backward(), '', backward(3))), 2 * 2 + 2 * 3, 'a second section starts after the first one ends');
  t.equal(expandedMeasures(partwise(backward(0), backward(Number.NaN))), 2 + 2, 'times below 1, or not a number, count as the default');
});

t.test('the first part counts (later parts repeat the same barlines); timewise measures count once each', async (t) => {
  const twoParts = partwise(backward(4)).replace('</score-partwise>', '').concat(`<part id="P2"><measure number="1">${NOTE}${backward(4)}</measure></part></score-partwise>`);
  t.equal(expandedMeasures(twoParts), 4);
  const timewise = `<score-timewise version="3.1"><part-list/><measure number="1"><part id="P1">${NOTE}${backward(7)}</part><part id="P2">${NOTE}${backward(7)}</part></measure><measure number="2"><part id="P1">${NOTE}</part></measure></score-timewise>`;
  t.equal(expandedMeasures(timewise), 7 + 1);
});

t.test('XML that is not well-formed throws', async (t) => {
  t.throws(() => expandedMeasures('<score-partwise><part>'), /unclosed tag/);
});
