/**
 * What a render process runs (app/apis/render-worker.ts): engraving with verovio, pages with resvg
 * and pdfkit, MusicXML as JSON, within the process's WebAssembly memory budget. Only render
 * processes load these libraries.
 */
export { musicXmlToJson } from './musicxml-json.js';
export { drawPdf, pageWidthPixels, rasterisePage } from './page-files.js';
export { runRenderTask } from './render-tasks.js';
export { prepareNotation, renderNotation } from './verovio-notation.js';
export { limitWebAssemblyMemory } from './wasm-memory-budget.js';
