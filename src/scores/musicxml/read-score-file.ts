import { SaxesParser } from 'saxes';
import { ServiceError } from '../../errors/index.js';
import { ZipArchive, type ZipEntry } from './mxl-archive.js';

/** What the service keeps of an uploaded MusicXML file, and what it reads from it. */
export interface MusicXmlScore {
  /** The uncompressed MusicXML document, as uploaded (or as found in the .mxl archive). */
  xml: string;
  /** `work-title`, else `movement-title`, else the first credit words; undefined when none. */
  title: string | undefined;
  /** Measures of the first part. */
  numberMeasures: number;
}

/** How large an uploaded score may be once uncompressed. */
export interface MusicXmlLimits {
  /** SCORES_MAX_MUSICXML_BYTES: the document, plain or inflated from an .mxl. */
  maxBytes: number;
  /** SCORES_MXL_MAX_RATIO: how many times its compressed size an .mxl entry may inflate to. */
  maxInflateRatio: number;
}

/** Any entry may inflate this far whatever its ratio: small, very repetitive files are harmless. */
export const RATIO_EXEMPT_BYTES = 1024 * 1024;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const ROOTS = new Set(['score-partwise', 'score-timewise']);
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function invalid(message: string): ServiceError {
  return new ServiceError('SC_INVALID_MUSICXML', message, { param: 'data' });
}

function tooLarge(message: string): ServiceError {
  return new ServiceError('SC_SCORE_TOO_LARGE', message, { param: 'data' });
}

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * A MusicXML file as uploaded: plain `.xml` (UTF-8) or compressed `.mxl` (a zip whose
 * META-INF/container.xml names the score). Checked for well-formed XML with a MusicXML root
 * (`score-partwise` or `score-timewise`); the error names the problem and where it is.
 */
export function readScoreFile(bytes: Uint8Array, limits: MusicXmlLimits): MusicXmlScore | ServiceError {
  if (isZip(bytes)) return readMxl(bytes, limits);
  if (bytes.byteLength > limits.maxBytes) return tooLarge(`the MusicXML is ${bytes.byteLength} bytes, more than SCORES_MAX_MUSICXML_BYTES (${limits.maxBytes})`);
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    return invalid('the MusicXML is not valid UTF-8');
  }
  return readMusicXml(text);
}

/**
 * One entry of the archive, inflated no further than the limits allow: SCORES_MAX_MUSICXML_BYTES,
 * and past RATIO_EXEMPT_BYTES, SCORES_MXL_MAX_RATIO times its compressed size.
 */
function inflated(archive: ZipArchive, entry: ZipEntry, limits: MusicXmlLimits): Uint8Array | ServiceError {
  const byRatio = Math.max(RATIO_EXEMPT_BYTES, entry.compressedSize * limits.maxInflateRatio);
  const bound = Math.min(limits.maxBytes, byRatio);
  const read = archive.read(entry, bound);
  if (read instanceof Uint8Array) return read;
  if (read.kind === 'damaged') return invalid(`the .mxl archive cannot be read: ${read.message}`);
  const what = read.declared === undefined ? `${entry.name} inflates to` : `${entry.name} declares ${read.declared} bytes uncompressed,`;
  if (bound === limits.maxBytes) return tooLarge(`${what} more than SCORES_MAX_MUSICXML_BYTES (${limits.maxBytes} bytes)`);
  return tooLarge(`${what} more than SCORES_MXL_MAX_RATIO (${limits.maxInflateRatio}) times its ${entry.compressedSize} compressed bytes`);
}

function entryNamed(archive: ZipArchive, name: string, missing: string): ZipEntry | ServiceError {
  const entry = archive.find(name);
  if (entry === undefined) return invalid(missing);
  return 'kind' in entry ? invalid(`the .mxl archive cannot be read: ${entry.message}`) : entry;
}

/** Only META-INF/container.xml and the one rootfile it names are inflated; other entries are never read. */
function readMxl(bytes: Uint8Array, limits: MusicXmlLimits): MusicXmlScore | ServiceError {
  const archive = ZipArchive.open(bytes);
  if (!(archive instanceof ZipArchive)) return invalid(`the .mxl archive cannot be read: ${archive.message}`);
  const containerEntry = entryNamed(archive, 'META-INF/container.xml', 'the .mxl archive has no META-INF/container.xml');
  if (containerEntry instanceof ServiceError) return containerEntry;
  const container = inflated(archive, containerEntry, limits);
  if (container instanceof ServiceError) return container;
  let rootPath: string | undefined;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const path = tag.attributes['full-path'];
    if (tag.name === 'rootfile' && rootPath === undefined && typeof path === 'string') rootPath = path;
  });
  try {
    parser.write(Buffer.from(container).toString('utf8')).close();
  } catch (error) {
    return invalid(`META-INF/container.xml: ${(error as Error).message}`);
  }
  if (rootPath === undefined) return invalid('META-INF/container.xml names no rootfile');
  const scoreEntry = entryNamed(archive, rootPath, `the .mxl archive has no ${rootPath}, which META-INF/container.xml names`);
  if (scoreEntry instanceof ServiceError) return scoreEntry;
  const score = inflated(archive, scoreEntry, limits);
  if (score instanceof ServiceError) return score;
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
