import { Resvg } from '@resvg/resvg-js';
import createVerovioModule from 'verovio/wasm';
import { VerovioToolkit, type VerovioTimemapEntry } from 'verovio/esm';
import { measureBoxes, type MeasureBox } from './measure-boxes.js';
import type { NotationRender } from './notation-renderer.js';

/** Width in pixels of `thumbnail.png`; the height follows the page's proportions (A4). */
export const THUMBNAIL_WIDTH = 600;

let toolkit: Promise<VerovioToolkit> | undefined;

/** One toolkit per process: instantiating the WebAssembly module costs about 100 ms. */
function verovio(): Promise<VerovioToolkit> {
  toolkit ??= createVerovioModule().then((module) => {
    const tk = new VerovioToolkit(module);
    // A4 portrait in verovio's tenths of a millimetre; every page keeps its full height so the
    // thumbnail has the proportions of a printed page.
    tk.setOptions({ pageWidth: 2100, pageHeight: 2970, adjustPageHeight: false, scale: 40, footer: 'none', header: 'auto' });
    return tk;
  });
  return toolkit;
}

/** Loads verovio on the calling thread ahead of the first engraving (about 0.5 s of WebAssembly compiling). */
export async function prepareNotation(): Promise<void> {
  await verovio();
}

/** When each measure starts (a measure played again by a repeat starts again), its id, and when the music ends. */
function measureTimes(timemap: readonly VerovioTimemapEntry[]): { measureStartsMs: number[]; measureIds: string[]; endMs: number } {
  const measureStartsMs: number[] = [];
  const measureIds: string[] = [];
  let endMs = 0;
  for (const entry of timemap) {
    if (entry.measureOn !== undefined) {
      measureStartsMs.push(entry.tstamp);
      measureIds.push(entry.measureOn);
    }
    endMs = Math.max(endMs, entry.tstamp);
  }
  return { measureStartsMs, measureIds, endMs };
}

/**
 * Engraves MusicXML with verovio (SVG pages, MIDI and the time map of notes and measures),
 * finds each played measure's box on its page, and rasterises the first page with resvg.
 * Synchronous and CPU-bound: call it in a render process.
 */
export async function renderNotation(musicXml: string): Promise<NotationRender> {
  const tk = await verovio();
  if (!tk.loadData(musicXml)) throw new Error(`verovio could not read the MusicXML: ${tk.getLog().trim() || 'no reason given'}`);
  const pagesSvg: string[] = [];
  const boxesById = new Map<string, MeasureBox[]>();
  for (let page = 1; page <= tk.getPageCount(); page++) {
    const svg = tk.renderToSVG(page);
    pagesSvg.push(svg);
    for (const [id, box] of measureBoxes(svg, page)) boxesById.set(id, [...(boxesById.get(id) ?? []), box]);
  }
  const thumbnailPng = new Resvg(pagesSvg[0] ?? '<svg xmlns="http://www.w3.org/2000/svg" width="2100" height="2970"/>', { fitTo: { mode: 'width', value: THUMBNAIL_WIDTH }, background: 'white' }).render().asPng();
  const midi = Buffer.from(tk.renderToMIDI(), 'base64');
  const { measureIds, ...times } = measureTimes(tk.renderToTimemap({ includeMeasures: true, includeRests: true }));
  return { thumbnailPng, midi, pagesSvg, measureBoxes: measureIds.map((id) => boxesById.get(id) ?? []), ...times };
}
