import { SaxesParser } from 'saxes';

/** Where a measure is drawn on a page, in the page SVG's own coordinates (its `width` and `height`). */
export interface MeasureBox {
  /** 1-based, as `?page=` of the svg and png exports. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Extent {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A staff line as verovio draws it: `M x1 y1 L x2 y2`. */
const LINE = /^M\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*L\s*(-?[\d.]+)[\s,]+(-?[\d.]+)$/;
const TRANSLATE = /translate\(\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*\)/;

function classes(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/);
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Each measure's box on one of verovio's page SVGs, by the measure's id: the extent of its staff
 * lines, from the top line of its first staff to the bottom line of its last, from its left
 * barline to its right. Verovio draws the music in an inner `definition-scale` SVG whose viewBox
 * is in its own units, shifted by the page margin; the boxes are given in the outer SVG's
 * coordinates, which are the page's pixels (`width`, `height`) and what the png export scales.
 */
export function measureBoxes(svg: string, page: number): Map<string, MeasureBox> {
  const parser = new SaxesParser();
  const open: Array<{ name: string; classes: string[]; id: string | undefined }> = [];
  const extents = new Map<string, Extent>();
  let scale = 1;
  let outerWidth: number | undefined;
  let margin = { x: 0, y: 0 };
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    const own = { name: tag.name, classes: classes(attributes['class']), id: attributes['id'] };
    if (tag.name === 'svg' && outerWidth === undefined) outerWidth = parseFloat(attributes['width'] ?? '');
    if (tag.name === 'svg' && own.classes.includes('definition-scale')) {
      const viewBoxWidth = Number((attributes['viewBox'] ?? '').split(/\s+/)[2]);
      if (outerWidth !== undefined && viewBoxWidth > 0) scale = outerWidth / viewBoxWidth;
    }
    if (own.classes.includes('page-margin')) {
      const shift = TRANSLATE.exec(attributes['transform'] ?? '');
      if (shift !== null) margin = { x: Number(shift[1]), y: Number(shift[2]) };
    }
    const staff = open[open.length - 1];
    const measure = open[open.length - 2];
    if (tag.name === 'path' && staff?.classes.includes('staff') && measure?.classes.includes('measure') && measure.id !== undefined) {
      const line = LINE.exec((attributes['d'] ?? '').trim());
      if (line !== null) {
        const [x1, y1, x2, y2] = line.slice(1).map(Number) as [number, number, number, number];
        const extent = extents.get(measure.id) ?? { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
        extents.set(measure.id, { left: Math.min(extent.left, x1, x2), top: Math.min(extent.top, y1, y2), right: Math.max(extent.right, x1, x2), bottom: Math.max(extent.bottom, y1, y2) });
      }
    }
    open.push(own);
  });
  parser.on('closetag', () => open.pop());
  parser.write(svg).close();
  const boxes = new Map<string, MeasureBox>();
  for (const [id, { left, top, right, bottom }] of extents) {
    boxes.set(id, { page, x: round((left + margin.x) * scale), y: round((top + margin.y) * scale), width: round((right - left) * scale), height: round((bottom - top) * scale) });
  }
  return boxes;
}
