/**
 * MusicXML scores of any size for tests and benchmarks: `parts` staves of `measures` 4/4 measures,
 * each measure four quarter notes walking up and down a C major scale.
 */
export interface GeneratedScoreShape {
  title: string;
  measures: number;
  parts: number;
  /** Quarter notes a minute (a `<sound tempo>` in the first measure); absent: the default, 120. */
  tempo?: number;
  /** Whether part `part` (1-based) plays measure `measure` (1-based); a measure it does not play is a whole rest. Absent: every part plays every measure. */
  plays?: (part: number, measure: number) => boolean;
}

const STEPS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];

/** The MIDI key of the n-th note of the walk (from C4 up an octave and back). */
export function generatedPitch(n: number): { step: string; octave: number; midi: number } {
  const degree = n % 14 < 8 ? n % 14 : 14 - (n % 14);
  const step = STEPS[degree % 7] as string;
  const octave = 4 + Math.floor(degree / 7);
  const semitones = [0, 2, 4, 5, 7, 9, 11][degree % 7] as number;
  return { step, octave, midi: 12 * (octave + 1) + semitones };
}

export function generatedScore({ title, measures, parts, tempo, plays = () => true }: GeneratedScoreShape): string {
  const tempoMark = tempo === undefined ? '' : `<direction placement="above"><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>${tempo}</per-minute></metronome></direction-type><sound tempo="${tempo}"/></direction>`;
  const partList: string[] = [];
  const bodies: string[] = [];
  for (let p = 1; p <= parts; p++) {
    partList.push(`<score-part id="P${p}"><part-name>Part ${p}</part-name></score-part>`);
    const measureXml: string[] = [];
    for (let m = 1; m <= measures; m++) {
      const opening = m === 1 ? '<attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>' + tempoMark : '';
      const notes: string[] = plays(p, m) ? [] : ['<note><rest measure="yes"/><duration>4</duration><type>whole</type></note>'];
      for (let beat = 0; beat < 4 && plays(p, m); beat++) {
        const pitch = generatedPitch((m - 1) * 4 + beat);
        notes.push(`<note><pitch><step>${pitch.step}</step><octave>${pitch.octave}</octave></pitch><duration>1</duration><type>quarter</type></note>`);
      }
      measureXml.push(`<measure number="${m}">${opening}${notes.join('')}</measure>`);
    }
    bodies.push(`<part id="P${p}">${measureXml.join('\n')}</part>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="3.1">
<work><work-title>${title}</work-title></work>
<part-list>${partList.join('')}</part-list>
${bodies.join('\n')}
</score-partwise>
`;
}
