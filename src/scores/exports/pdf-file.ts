import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { A4_INCHES } from './page-files.js';

const POINTS_PER_INCH = 72;

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
