/** The export formats of release 2.13.0 (`GET /scores/{score}/revisions/{revision}/{format}`). */
export const EXPORT_FORMATS = ['json', 'mxl', 'xml', 'mp3', 'wav', 'midi', 'thumbnail.png', 'synchronizationPoints'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

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
};
