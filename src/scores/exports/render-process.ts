/**
 * What a render process runs (app/apis/render-worker.ts): engraving with verovio, pages with resvg,
 * MusicXML as JSON, within the process's WebAssembly memory budget; PDFs with pdfkit
 * (pdf-file.ts), loaded on a process's first PDF. Only render processes load these libraries.
 */
export { musicXmlToJson } from './musicxml-json.js';
export { pageWidthPixels, rasterisePage } from './page-files.js';
export { runRenderTask } from './render-tasks.js';
export { prepareNotation, renderNotation } from './verovio-notation.js';
export { limitWebAssemblyMemory } from './wasm-memory-budget.js';
