/**
 * A tiny score whose one measure repeats `times` times (`<repeat direction="backward" times=…/>`):
 * about 600 bytes that verovio plays `times` measures long, with memory that grows faster than
 * that (5000 times takes it to its 2 GiB).
 */
export function repeatedScore(times: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<score-partwise version="3.1"><part-list><score-part id="P1"><part-name>P</part-name></score-part></part-list>
<part id="P1"><measure number="1"><attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
<note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note>
<barline location="right"><bar-style>light-heavy</bar-style><repeat direction="backward" times="${times}"/></barline></measure></part></score-partwise>
`;
}
