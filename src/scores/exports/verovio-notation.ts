import { Resvg } from '@resvg/resvg-js';
import createVerovioModule from 'verovio/wasm';
import { VerovioToolkit, type VerovioTimemapEntry } from 'verovio/esm';
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

function measureTimes(timemap: readonly VerovioTimemapEntry[]): { measureStartsMs: number[]; endMs: number } {
  const measureStartsMs: number[] = [];
  let endMs = 0;
  for (const entry of timemap) {
    if (entry.measureOn !== undefined) measureStartsMs.push(entry.tstamp);
    endMs = Math.max(endMs, entry.tstamp);
  }
  return { measureStartsMs, endMs };
}

/**
 * Engraves MusicXML with verovio (SVG pages, MIDI and the time map of notes and measures) and
 * rasterises the first page with resvg. Synchronous and CPU-bound: call it in a render process.
 */
export async function renderNotation(musicXml: string): Promise<NotationRender> {
  const tk = await verovio();
  if (!tk.loadData(musicXml)) throw new Error(`verovio could not read the MusicXML: ${tk.getLog().trim() || 'no reason given'}`);
  const pageCount = tk.getPageCount();
  const svg = tk.renderToSVG(1);
  const thumbnailPng = new Resvg(svg, { fitTo: { mode: 'width', value: THUMBNAIL_WIDTH }, background: 'white' }).render().asPng();
  const midi = Buffer.from(tk.renderToMIDI(), 'base64');
  const times = measureTimes(tk.renderToTimemap({ includeMeasures: true, includeRests: true }));
  return { thumbnailPng, midi, pageCount, ...times };
}
