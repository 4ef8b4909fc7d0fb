/** svg-to-pdfkit 0.1 ships no types: the one call the PDF export makes of it. */
declare module 'svg-to-pdfkit' {
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    /** Lengths in the SVG are points rather than CSS pixels. */
    assumePt?: boolean;
    warningCallback?: (message: string) => void;
  }
  export default function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: SvgToPdfOptions): void;
}
