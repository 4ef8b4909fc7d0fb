/**
 * Score exports: engraving, audio, synchronization points, and the cache that keeps them. What
 * runs inside a render process (verovio, resvg; pdfkit in pdf-file.ts) is in render-process.ts: the API thread
 * never loads those libraries.
 */
export { AudioSynthesizer, AudioToolMissing } from './audio-synthesizer.js';
export type { AudioToolsSettings } from './audio-synthesizer.js';
export { ExportBusy, ExportFailed, ExportOverLimit, PageOutOfRange } from './export-errors.js';
export { CONTENT_TYPES, DEFAULT_PAGE_CHOICE, DPI_RANGE, EXPORT_FORMATS, isExportFormat, PAGE_FORMATS } from './formats.js';
export type { ExportFormat, PageChoice } from './formats.js';
export type { NotationRender, NotationRenderer } from './notation-renderer.js';
export { measureBoxes } from './measure-boxes.js';
export type { MeasureBox } from './measure-boxes.js';
export { PooledNotationRenderer } from './pooled-notation-renderer.js';
export type { RenderPoolOptions, RenderProcessData, RenderProcessMessage, RenderRequest } from './pooled-notation-renderer.js';
export type { RenderLimits, RenderTask } from './render-tasks.js';
export { ScoreExporter } from './score-exporter.js';
export type { ExportedFile } from './export-cache.js';
export type { ExportBody, ExportSource, ScoreExporterOptions } from './score-exporter.js';
