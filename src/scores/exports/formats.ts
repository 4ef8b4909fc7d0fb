/**
 * The export formats of release 2.13.0 (`GET /scores/{score}/revisions/{revision}/{format}`),
 * and this service's page formats: `svg` (one page), `pdf` (every page) and `png` (one page at a dpi).
 */
export const EXPORT_FORMATS = ['json', 'mxl', 'xml', 'mp3', 'wav', 'midi', 'thumbnail.png', 'synchronizationPoints', 'svg', 'pdf', 'png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** The formats drawn from the engraved pages, whose answers carry the page count. */
export const PAGE_FORMATS: ReadonlySet<ExportFormat> = new Set(['svg', 'pdf', 'png']);

/** Which page, at what resolution: `page` for svg and png, `dpi` for png. */
export interface PageChoice {
  /** 1-based. */
  page: number;
  dpi: number;
}

/** The resolutions a png may be asked for: 36 dpi is a 298-pixel-wide page, 300 dpi a 2480-pixel-wide one. */
export const DPI_RANGE = { min: 36, max: 300 } as const;
export const DEFAULT_PAGE_CHOICE: PageChoice = { page: 1, dpi: 150 };

/** The content types the specification gives each format. */
export const CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  json: 'application/json',
  mxl: 'application/vnd.recordare.musicxml',
  xml: 'application/vnd.recordare.musicxml+xml',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  midi: 'audio/midi',
  'thumbnail.png': 'image/png',
  synchronizationPoints: 'application/json',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  png: 'image/png',
};
