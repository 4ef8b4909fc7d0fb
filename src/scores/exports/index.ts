/** Score exports: engraving, audio, synchronization points, and the cache that keeps them. */
export { AudioSynthesizer, AudioToolMissing } from './audio-synthesizer.js';
export type { AudioToolsSettings } from './audio-synthesizer.js';
export { ExportBusy, ExportFailed, ExportOverLimit } from './export-errors.js';
export { CONTENT_TYPES, EXPORT_FORMATS, isExportFormat } from './formats.js';
export type { ExportFormat } from './formats.js';
export { musicXmlToJson } from './musicxml-json.js';
export type { NotationRender, NotationRenderer } from './notation-renderer.js';
export { PooledNotationRenderer } from './pooled-notation-renderer.js';
export type { RenderPoolOptions, RenderProcessData, RenderProcessMessage, RenderRequest } from './pooled-notation-renderer.js';
export { runRenderTask } from './render-tasks.js';
export type { RenderLimits, RenderTask } from './render-tasks.js';
export { ScoreExporter } from './score-exporter.js';
export type { ExportedFile } from './export-cache.js';
export type { ExportBody, ExportSource, ScoreExporterOptions } from './score-exporter.js';
export { prepareNotation, renderNotation } from './verovio-notation.js';
export { limitWebAssemblyMemory } from './wasm-memory-budget.js';
