import { expandedMeasures } from '../musicxml/expanded-measures.js';
import { musicXmlToJson } from './musicxml-json.js';
import type { NotationRender } from './notation-renderer.js';
import { rasterisePage } from './page-files.js';
import { renderNotation } from './verovio-notation.js';
import type { WasmMemoryBudget } from './wasm-memory-budget.js';

/** What a render process is asked to do. */
export type RenderTask =
  | { kind: 'engrave'; musicXml: string }
  | { kind: 'json'; musicXml: string }
  | { kind: 'pdf'; svgFiles: readonly string[]; title: string; pdfFile: string }
  | { kind: 'png'; svgFile: string; dpi: number; pngFile: string };

/** The bounds a render process works within. */
export interface RenderLimits {
  /** SCORES_MAX_EXPANDED_MEASURES */
  maxExpandedMeasures: number;
  /** SCORES_RENDER_MAX_MEMORY_MB: the JavaScript heap (--max-old-space-size) and WebAssembly memory, each. */
  maxMemoryMb: number;
}

export type RenderTaskOutcome =
  | { ok: true; value: NotationRender | string | null }
  | {
      ok: false;
      /** Past a bound (the message names its setting), rather than a score the tools cannot read. */
      overLimit: boolean;
      message: string;
      /** The process's engraver may be left in a broken state: it must not take another task. */
      retire: boolean;
    };

function describe(error: unknown): string {
  // verovio's own failures (an out-of-memory abort among them) are WebAssembly exceptions without a message.
  return error instanceof Error ? error.message : `verovio stopped (${String(error)})`;
}

/** Counts the measures the score plays before engraving it: repeats are what make verovio's work and memory explode. */
async function engrave(musicXml: string, limits: RenderLimits, memory: WasmMemoryBudget): Promise<RenderTaskOutcome> {
  let measures: number;
  try {
    measures = expandedMeasures(musicXml);
  } catch (error) {
    return { ok: false, overLimit: false, message: `the MusicXML is not well-formed: ${describe(error)}`, retire: false };
  }
  if (measures > limits.maxExpandedMeasures) {
    return { ok: false, overLimit: true, message: `the score expands to ${measures} measures with its repeats, more than SCORES_MAX_EXPANDED_MEASURES (${limits.maxExpandedMeasures})`, retire: false };
  }
  const refusalsBefore = memory.refusals;
  try {
    return { ok: true, value: await renderNotation(musicXml) };
  } catch (error) {
    if (memory.refusals > refusalsBefore) {
      return { ok: false, overLimit: true, message: `engraving needed more than SCORES_RENDER_MAX_MEMORY_MB (${limits.maxMemoryMb} MiB) of memory`, retire: true };
    }
    return { ok: false, overLimit: false, message: describe(error), retire: true };
  }
}

/** A task that writes a file from the engraving's pages; its failure is the file's, not the engraver's. */
async function drawPages(task: Extract<RenderTask, { kind: 'pdf' | 'png' }>): Promise<RenderTaskOutcome> {
  try {
    // pdfkit costs a render process about 0.35 s of CPU to load, so only a process asked for a PDF loads it.
    if (task.kind === 'pdf') await (await import('./pdf-file.js')).drawPdf(task.svgFiles, task.title, task.pdfFile);
    else await rasterisePage(task.svgFile, task.dpi, task.pngFile);
    return { ok: true, value: null };
  } catch (error) {
    return { ok: false, overLimit: false, message: `drawing the ${task.kind === 'pdf' ? 'PDF' : 'PNG'} failed: ${describe(error)}`, retire: false };
  }
}

/** Runs one task in the calling (render) process; every failure is a value, so the process lives on unless told to retire. */
export async function runRenderTask(task: RenderTask, limits: RenderLimits, memory: WasmMemoryBudget): Promise<RenderTaskOutcome> {
  if (task.kind === 'engrave') return engrave(task.musicXml, limits, memory);
  if (task.kind === 'pdf' || task.kind === 'png') return drawPages(task);
  try {
    return { ok: true, value: musicXmlToJson(task.musicXml) };
  } catch (error) {
    return { ok: false, overLimit: false, message: `the MusicXML cannot be read: ${describe(error)}`, retire: false };
  }
}
