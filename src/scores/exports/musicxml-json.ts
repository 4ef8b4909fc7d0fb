import { SaxesParser, type SaxesTagPlain } from 'saxes';

type JsonElement = { [name: string]: string | JsonElement | Array<string | JsonElement> };

/** Elements that are lists in MusicXML, kept as arrays even when one occurs. */
const ALWAYS_LISTS = new Set(['part', 'measure', 'score-part', 'part-group', 'note', 'direction', 'credit', 'beam', 'lyric', 'harmony', 'barline', 'backup', 'forward', 'attributes', 'direction-type', 'notations']);

/**
 * The `json` export: the MusicXML document as JSON, the shape Flat's JSON format has (MusicXML's
 * element tree, attributes as `$name`, text content as `$text` when an element also has
 * attributes or children, and list elements always arrays). A plain tree walk; saxes does the
 * parsing.
 */
export function musicXmlToJson(xml: string): string {
  const parser = new SaxesParser();
  const stack: Array<{ name: string; node: JsonElement; text: string }> = [];
  let root: JsonElement | undefined;
  let rootName = '';
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const node: JsonElement = {};
    for (const [name, value] of Object.entries(tag.attributes)) node[`$${name}`] = value;
    stack.push({ name: tag.name, node, text: '' });
  });
  parser.on('text', (chunk) => {
    const top = stack[stack.length - 1];
    if (top !== undefined) top.text += chunk;
  });
  parser.on('closetag', () => {
    const done = stack.pop();
    if (done === undefined) return;
    const text = done.text.trim();
    const hasContent = Object.keys(done.node).length > 0;
    if (text !== '' && hasContent) done.node['$text'] = text;
    const value: string | JsonElement = hasContent ? done.node : text;
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      root = typeof value === 'string' ? { $text: value } : value;
      rootName = done.name;
      return;
    }
    const existing = parent.node[done.name];
    if (Array.isArray(existing)) existing.push(value);
    else if (existing !== undefined) parent.node[done.name] = [existing, value];
    else parent.node[done.name] = ALWAYS_LISTS.has(done.name) ? [value] : value;
  });
  parser.write(xml).close();
  return JSON.stringify({ [rootName]: root ?? {} });
}
