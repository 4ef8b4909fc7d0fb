import type { MeasureBox } from './measure-boxes.js';

/** What engraving a revision yields: the files made from its notation, and its timing. */
export interface NotationRender {
  /** The first page, as PNG. */
  thumbnailPng: Uint8Array;
  /** Standard MIDI file of the whole score. */
  midi: Uint8Array;
  /** When each measure starts, in milliseconds from the start, in score order. */
  measureStartsMs: number[];
  /** When the last note or rest ends, in milliseconds. */
  endMs: number;
  /** Every page, as verovio draws it. */
  pagesSvg: string[];
  /** Where each measure of `measureStartsMs` is drawn: a box per page it is on. */
  measureBoxes: MeasureBox[][];
}

/**
 * The CPU-heavy work on a revision's MusicXML. Implementations run it away from the threads that
 * answer HTTP (a worker pool); the exporter only awaits it.
 */
export interface NotationRenderer {
  render(musicXml: string): Promise<NotationRender>;
  /** The score as JSON (see musicxml-json.ts). */
  toJson(musicXml: string): Promise<string>;
  /** Draws the page SVGs into one PDF at `pdfFile` (see pdf-file.ts). */
  pdf(svgFiles: readonly string[], title: string, pdfFile: string): Promise<void>;
  /** Rasterises one page SVG at `dpi` into `pngFile`. */
  png(svgFile: string, dpi: number, pngFile: string): Promise<void>;
  close(): Promise<void>;
}
