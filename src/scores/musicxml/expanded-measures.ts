import { SaxesParser } from 'saxes';

/** A backward repeat without `times` plays its section twice. */
const DEFAULT_REPEAT_TIMES = 2;

/**
 * How many measures the score plays once its repeats are expanded, as an engraver that plays
 * them does: each section closed by `<repeat direction="backward" times="N"/>` plays N times
 * (from the last forward repeat, or the end of the previous section, or the start). Counted on the
 * first part (score-partwise) or the top-level measures (score-timewise), like the score's
 * measures. Voltas are not subtracted, so the count is at most a little high, never low.
 * Throws on XML that is not well-formed (the engraver would refuse it too).
 */
export function expandedMeasures(xml: string): number {
  const parser = new SaxesParser();
  const open: string[] = [];
  let root: string | undefined;
  let partsSeen = 0;
  let measures = 0;
  let sectionStart = 0;
  let extra = 0;
  /** A timewise measure repeats the barline in each of its parts: its repeat counts once. */
  let lastBackward = -1;
  /** Whether the element being read is inside a measure that counts (see the function's comment). */
  let inCountedMeasure = false;
  parser.on('opentag', (tag) => {
    if (root === undefined) root = tag.name;
    open.push(tag.name);
    if (tag.name === 'part' && open.length === 2) partsSeen++;
    if (tag.name === 'measure') {
      inCountedMeasure = root === 'score-partwise' ? partsSeen === 1 && open.length === 3 : open.length === 2;
      if (inCountedMeasure) measures++;
    }
    if (tag.name !== 'repeat' || !inCountedMeasure) return;
    const current = measures - 1;
    if (tag.attributes['direction'] === 'forward') {
      sectionStart = current;
      return;
    }
    if (tag.attributes['direction'] !== 'backward' || current === lastBackward) return;
    lastBackward = current;
    const times = Number(tag.attributes['times'] ?? DEFAULT_REPEAT_TIMES);
    const plays = Number.isFinite(times) && times >= 1 ? Math.floor(times) : DEFAULT_REPEAT_TIMES;
    extra += (plays - 1) * (current - Math.min(sectionStart, current) + 1);
    sectionStart = current + 1;
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (tag.name === 'measure') inCountedMeasure = false;
  });
  parser.write(xml).close();
  return measures + extra;
}
