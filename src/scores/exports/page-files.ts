import { readFile, writeFile } from 'node:fs/promises';
import { Resvg } from '@resvg/resvg-js';

/** An engraved page is A4: 210 mm wide, 297 mm high. */
export const A4_INCHES = { width: 210 / 25.4, height: 297 / 25.4 };

/** Pixels across a page rasterised at `dpi`. */
export function pageWidthPixels(dpi: number): number {
  return Math.round(A4_INCHES.width * dpi);
}

/** One page SVG as PNG at `dpi`, on white paper, written to `pngFile`. CPU-bound: call it in a render process. */
export async function rasterisePage(svgFile: string, dpi: number, pngFile: string): Promise<void> {
  const svg = await readFile(svgFile, 'utf8');
  await writeFile(pngFile, new Resvg(svg, { fitTo: { mode: 'width', value: pageWidthPixels(dpi) }, background: 'white' }).render().asPng());
}
