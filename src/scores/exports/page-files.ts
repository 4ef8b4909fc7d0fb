import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { Resvg } from '@resvg/resvg-js';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';

/** An engraved page is A4: 210 mm wide, 297 mm high. */
const A4_INCHES = { width: 210 / 25.4, height: 297 / 25.4 };
const POINTS_PER_INCH = 72;

/** Pixels across a page rasterised at `dpi`. */
export function pageWidthPixels(dpi: number): number {
  return Math.round(A4_INCHES.width * dpi);
}

/** One page SVG as PNG at `dpi`, on white paper, written to `pngFile`. CPU-bound: call it in a render process. */
export async function rasterisePage(svgFile: string, dpi: number, pngFile: string): Promise<void> {
  const svg = await readFile(svgFile, 'utf8');
  await writeFile(pngFile, new Resvg(svg, { fitTo: { mode: 'width', value: pageWidthPixels(dpi) }, background: 'white' }).render().asPng());
}

/**
 * The pages as one vector PDF (A4, a page each), with `title` as its document title, written to
 * `pdfFile` as it is drawn: only one page's SVG is held at a time. CPU-bound: call it in a render process.
 */
export async function drawPdf(svgFiles: readonly string[], title: string, pdfFile: string): Promise<void> {
  const size = [A4_INCHES.width * POINTS_PER_INCH, A4_INCHES.height * POINTS_PER_INCH] as const;
  const doc = new PDFDocument({ size: [...size], margin: 0, autoFirstPage: false, info: { Title: title, Creator: 'ratelimit-node score exports' } });
  const out = createWriteStream(pdfFile);
  doc.pipe(out);
  for (const svgFile of svgFiles) {
    doc.addPage();
    SVGtoPDF(doc, await readFile(svgFile, 'utf8'), 0, 0, { width: size[0], height: size[1], preserveAspectRatio: 'xMidYMid meet' });
  }
  doc.end();
  await finished(out);
}
