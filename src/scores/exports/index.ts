/** Score exports: engraving, audio, synchronization points, and the cache that keeps them. */
export { AudioSynthesizer, AudioToolMissing } from './audio-synthesizer.js';
export type { AudioToolsSettings } from './audio-synthesizer.js';
export { CONTENT_TYPES, EXPORT_FORMATS, isExportFormat } from './formats.js';
export type { ExportFormat } from './formats.js';
export { musicXmlToJson } from './musicxml-json.js';
export type { NotationRender, NotationRenderer } from './notation-renderer.js';
export { PooledNotationRenderer } from './pooled-notation-renderer.js';
export type { RenderTask } from './pooled-notation-renderer.js';
export { ExportFailed, ScoreExporter } from './score-exporter.js';
export type { ExportSource } from './score-exporter.js';
export { renderNotation } from './verovio-notation.js';
