import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** What becomes of the parts an export leaves out. */
export type OtherParts = 'removed' | 'muted';

/** A text edit of the document: `[start, end)` becomes `text`. */
interface Splice {
  start: number;
  end: number;
  text: string;
}

/** The ids of the score's parts (`<score-part id>` of the part list), in score order. Throws on XML that is not well-formed. */
export function scorePartIds(xml: string): string[] {
  const parser = new SaxesParser();
  const open: string[] = [];
  const ids: string[] = [];
  parser.on('opentag', (tag) => {
    const id = tag.attributes['id'];
    if (tag.name === 'score-part' && open[open.length - 1] === 'part-list' && typeof id === 'string') ids.push(id);
    open.push(tag.name);
  });
  parser.on('closetag', () => open.pop());
  parser.write(xml).close();
  return ids;
}

/**
 * The tempo marks (`<sound tempo>`) of the parts left out, by measure number, in the measures
 * where no kept part has one of its own: scores often mark the tempo in their first part only,
 * and a stem of the others would otherwise play at the default tempo.
 */
function temposOfOtherParts(xml: string, keep: ReadonlySet<string>): Map<string, string> {
  const parser = new SaxesParser();
  const others = new Map<string, string>();
  const kept = new Set<string>();
  let measure: string | undefined;
  let part: string | undefined;
  parser.on('opentag', (tag) => {
    if (tag.name === 'measure') measure = String(tag.attributes['number'] ?? '');
    else if (tag.name === 'part') part = String(tag.attributes['id'] ?? '');
    else if (tag.name === 'sound' && typeof tag.attributes['tempo'] === 'string' && measure !== undefined && part !== undefined) {
      if (keep.has(part)) kept.add(measure);
      else if (!others.has(measure)) others.set(measure, tag.attributes['tempo']);
    }
  });
  parser.write(xml).close();
  for (const number of kept) others.delete(number);
  return others;
}

/**
 * The document with only the parts in `keep`: the others are cut out (`removed`: their
 * `<score-part>` and every `<part>` of theirs, partwise or timewise; a tempo only they marked
 * moves to the start of that measure in the first kept part), or kept silent
 * (`muted`: each of their notes becomes a rest of the same duration, and chord and grace notes,
 * which take no time, go), so the music keeps its length, tempo and every measure's timing.
 * Everything else is left byte for byte as uploaded. Throws on XML that is not well-formed.
 */
export function keepParts(xml: string, keep: ReadonlySet<string>, others: OtherParts): string {
  const parser = new SaxesParser();
  const open: string[] = [];
  const splices: Splice[] = [];
  let root: string | undefined;
  /** Where the element being left out starts, and how deep it is. */
  let cutting: { start: number; depth: number } | undefined;
  /** Inside a part to mute: the current note's start, what to change in it, and whether it takes no time. */
  let muting = false;
  let note: { start: number; pitch: Splice[]; timeless: boolean; pitchStart: number } | undefined;
  /** Where the tag just read starts: saxes reports events just past its `>`, and `<` cannot occur inside a tag. */
  const tagStart = () => xml.lastIndexOf('<', parser.position - 1);
  const tempos = others === 'removed' ? temposOfOtherParts(xml, keep) : new Map<string, string>();
  /** The first kept part gets the tempos: partwise its `<part>`, timewise the first kept `<part>` of each measure. */
  let firstKept: string | undefined;
  let currentPart: string | undefined;
  let measure: string | undefined;
  let measureHasTempo = false;
  const carryTempo = () => {
    const tempo = measure === undefined || measureHasTempo ? undefined : tempos.get(measure);
    if (tempo === undefined) return;
    splices.push({ start: parser.position, end: parser.position, text: `<sound tempo="${tempo}"/>` });
    measureHasTempo = true;
  };

  const isPart = (tag: SaxesTagPlain) => {
    const parent = open[open.length - 1];
    if (tag.name === 'score-part') return parent === 'part-list';
    return tag.name === 'part' && (parent === root || (parent === 'measure' && open.length === 2));
  };

  parser.on('opentag', (tag) => {
    root ??= tag.name;
    if (tempos.size > 0 && cutting === undefined && !tag.isSelfClosing) {
      if (tag.name === 'measure') {
        measure = String(tag.attributes['number'] ?? '');
        measureHasTempo = false;
        if (root === 'score-partwise' && currentPart !== undefined && currentPart === firstKept) carryTempo();
      } else if (tag.name === 'part' && isPart(tag) && keep.has(String(tag.attributes['id']))) {
        currentPart = String(tag.attributes['id']);
        firstKept ??= currentPart;
        if (root === 'score-timewise') carryTempo();
      }
    }
    if (cutting === undefined && isPart(tag) && !keep.has(String(tag.attributes['id']))) {
      // A muted part keeps its place in the part list: only its notes go quiet.
      if (others === 'removed') cutting = { start: tagStart(), depth: open.length };
      else if (tag.name === 'part') muting = true;
    }
    if (muting && cutting === undefined) {
      if (tag.name === 'note') note = { start: tagStart(), pitch: [], timeless: false, pitchStart: 0 };
      else if (note !== undefined && (tag.name === 'chord' || tag.name === 'grace')) note.timeless = true;
      else if (note !== undefined && (tag.name === 'pitch' || tag.name === 'unpitched')) note.pitchStart = tagStart();
    }
    open.push(tag.name);
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (cutting !== undefined) {
      if (open.length === cutting.depth) {
        splices.push({ start: cutting.start, end: parser.position, text: '' });
        cutting = undefined;
      }
      return;
    }
    if (!muting) return;
    if (note !== undefined && (tag.name === 'pitch' || tag.name === 'unpitched')) note.pitch.push({ start: note.pitchStart, end: parser.position, text: '<rest/>' });
    if (note !== undefined && tag.name === 'note') {
      if (note.timeless) splices.push({ start: note.start, end: parser.position, text: '' });
      else splices.push(...note.pitch);
      note = undefined;
    }
    if (tag.name === 'part') muting = false;
  });
  parser.write(xml).close();

  let kept = '';
  let at = 0;
  for (const splice of splices) {
    kept += xml.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  return kept + xml.slice(at);
}
