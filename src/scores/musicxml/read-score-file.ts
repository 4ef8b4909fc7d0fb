import { strFromU8, unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { ServiceError } from '../../errors/index.js';

/** What the service keeps of an uploaded MusicXML file, and what it reads from it. */
export interface MusicXmlScore {
  /** The uncompressed MusicXML document, as uploaded (or as found in the .mxl archive). */
  xml: string;
  /** `work-title`, else `movement-title`, else the first credit words; undefined when none. */
  title: string | undefined;
  /** Measures of the first part. */
  numberMeasures: number;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const ROOTS = new Set(['score-partwise', 'score-timewise']);
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function invalid(message: string): ServiceError {
  return new ServiceError('SC_INVALID_MUSICXML', message, { param: 'data' });
}

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * A MusicXML file as uploaded: plain `.xml` (UTF-8) or compressed `.mxl` (a zip whose
 * META-INF/container.xml names the score). Checked for well-formed XML with a MusicXML root
 * (`score-partwise` or `score-timewise`); the error names the problem and where it is.
 */
export function readScoreFile(bytes: Uint8Array): MusicXmlScore | ServiceError {
  if (isZip(bytes)) return readMxl(bytes);
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    return invalid('the MusicXML is not valid UTF-8');
  }
  return readMusicXml(text);
}

function readMxl(bytes: Uint8Array): MusicXmlScore | ServiceError {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (error) {
    return invalid(`the .mxl archive cannot be read: ${(error as Error).message}`);
  }
  const container = files['META-INF/container.xml'];
  if (container === undefined) return invalid('the .mxl archive has no META-INF/container.xml');
  let rootPath: string | undefined;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const path = tag.attributes['full-path'];
    if (tag.name === 'rootfile' && rootPath === undefined && typeof path === 'string') rootPath = path;
  });
  try {
    parser.write(strFromU8(container)).close();
  } catch (error) {
    return invalid(`META-INF/container.xml: ${(error as Error).message}`);
  }
  if (rootPath === undefined) return invalid('META-INF/container.xml names no rootfile');
  const score = files[rootPath];
  if (score === undefined) return invalid(`the .mxl archive has no ${rootPath}, which META-INF/container.xml names`);
  let text: string;
  try {
    text = fatalUtf8.decode(score);
  } catch {
    return invalid(`${rootPath} is not valid UTF-8`);
  }
  return readMusicXml(text);
}

/** Reads the parts of a MusicXML document the service shows (title, measures) while checking it. */
export function readMusicXml(xml: string): MusicXmlScore | ServiceError {
  const parser = new SaxesParser({ position: true });
  const open: string[] = [];
  let root: string | undefined;
  let workTitle: string | undefined;
  let movementTitle: string | undefined;
  let creditWords: string | undefined;
  let partsSeen = 0;
  let measures = 0;
  let text = '';
  parser.on('opentag', (tag) => {
    if (root === undefined) root = tag.name;
    open.push(tag.name);
    text = '';
    if (tag.name === 'part' && open[open.length - 2] === root) partsSeen++;
    if (tag.name === 'measure') {
      // score-partwise: measures inside the first part; score-timewise: every top-level measure.
      if (root === 'score-partwise' ? partsSeen === 1 : open.length === 2) measures++;
    }
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.on('closetag', (tag) => {
    open.pop();
    const value = text.trim();
    if (tag.name === 'work-title' && workTitle === undefined && value !== '') workTitle = value;
    if (tag.name === 'movement-title' && movementTitle === undefined && value !== '') movementTitle = value;
    if (tag.name === 'credit-words' && creditWords === undefined && value !== '') creditWords = value;
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    return invalid(`the MusicXML is not well-formed XML: ${(error as Error).message}`);
  }
  if (root === undefined || !ROOTS.has(root)) return invalid(`the root element is ${root === undefined ? 'missing' : `<${root}>`}; MusicXML has <score-partwise> or <score-timewise>`);
  return { xml, title: workTitle ?? movementTitle ?? creditWords, numberMeasures: measures };
}
