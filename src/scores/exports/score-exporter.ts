import { readFile, rm } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import { LRUCache } from 'lru-cache';
import { ServiceError } from '../../errors/index.js';
import { AudioToolMissing, type AudioSynthesizer } from './audio-synthesizer.js';
import { ExportCache, type ExportCacheOptions, type ExportedFile } from './export-cache.js';
import { ExportBusy, ExportFailed, ExportOverLimit, PageOutOfRange } from './export-errors.js';
import { DEFAULT_PAGE_CHOICE, type ExportFormat, type PageChoice } from './formats.js';
import { JobLimiter } from './job-limiter.js';
import type { NotationRenderer } from './notation-renderer.js';
import type { MeasureBox } from './measure-boxes.js';
import { synchronizationPoints } from './sync-points.js';

/** The revision an export is made of; its MusicXML is read only when a file must be produced. */
export interface ExportSource {
  scoreId: string;
  revisionId: string;
  /** The score's owner: the export cache counts the revision's files against that account. */
  ownerId: string;
  /** The MusicXML the export is made of: the revision's, or (see `variant`) a reduction of it. */
  musicXml(): Promise<string>;
  /**
   * Names what `musicXml` holds when it is not the whole revision (chosen parts, the others
   * removed or muted): the prefix of every file made of it, so each part set has its own files.
   * Absent or '' for the whole score.
   */
  variant?: string;
  /** The document title of the PDF. */
  title?: string;
}

/** An export as the API answers with it: a file the HTTP front streams, or (the MusicXML as stored) bytes. */
export type ExportBody = ExportedFile | Uint8Array;

export interface ScoreExporterOptions {
  cache: ExportCacheOptions;
  renderer: NotationRenderer;
  audio: AudioSynthesizer;
  /** SCORES_MAX_AUDIO_DURATION: longer music is refused before FluidSynth starts. */
  maxAudioMs: number;
  /** SCORES_SYNTH_CONCURRENCY: FluidSynth and LAME runs at once. */
  synthConcurrency: number;
  /** SCORES_EXPORT_MAX_QUEUED: runs waiting for a synthesiser; more are refused. */
  maxQueued: number;
}

type FileFormat = Exclude<ExportFormat, 'xml'>;

/**
 * Cached file names (after the source's variant); `engraving.json` is the engraving's measure
 * times, boxes and page count, which audio, sync points and the pages need.
 */
const FILES: Readonly<Record<Exclude<FileFormat, 'svg' | 'png'>, string>> = {
  json: 'score.json',
  mxl: 'score.mxl',
  midi: 'score.mid',
  'thumbnail.png': 'thumbnail.png',
  wav: 'audio.wav',
  mp3: 'audio.mp3',
  synchronizationPoints: 'synchronizationPoints.json',
  pdf: 'score.pdf',
};
const TIMING = 'engraving.json';
const pageSvg = (page: number) => `page-${page}.svg`;

/** The file of a format, for the source's variant and (svg, png) the page and resolution asked for. */
function fileName(variant: string | undefined, format: FileFormat, pages: PageChoice): string {
  const base = format === 'svg' ? pageSvg(pages.page) : format === 'png' ? `page-${pages.page}.${pages.dpi}dpi.png` : FILES[format];
  return `${variant ?? ''}${base}`;
}

/** Revisions whose engraving passed a bound, remembered so that asking again does not spend the budget again. */
const REMEMBERED_REFUSALS = 1000;

interface Timing {
  measureStartsMs: number[];
  endMs: number;
  pageCount: number;
  measureBoxes: MeasureBox[][];
}

/** Runs a step of producing a file; an unexpected failure becomes an ExportFailed naming the step. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AudioToolMissing || error instanceof ExportOverLimit || error instanceof ExportBusy || error instanceof PageOutOfRange) throw error;
    throw new ExportFailed(`${what}: ${(error as Error).message}`);
  }
}

/** A producing failure in the API's error form; anything else is a defect and is thrown on. */
function asServiceError(error: unknown, format: ExportFormat, revisionId: string): ServiceError {
  const param = { param: 'format' };
  if (error instanceof PageOutOfRange) return new ServiceError('SC_BAD_REQUEST', error.message, { param: 'page' });
  if (error instanceof AudioToolMissing) return new ServiceError('SC_EXPORT_UNAVAILABLE', `the ${format} export needs audio tools: ${error.message}`, param);
  if (error instanceof ExportOverLimit) return new ServiceError('SC_EXPORT_OVER_LIMIT', `the ${format} export of revision ${revisionId} is refused: ${error.message}`, param);
  if (error instanceof ExportBusy) return new ServiceError('SC_EXPORT_BUSY', `the ${format} export of revision ${revisionId} cannot start now: ${error.message}`, param);
  if (error instanceof ExportFailed) return new ServiceError('SC_EXPORT_FAILED', `the ${format} export of revision ${revisionId} failed: ${error.message}`, param);
  throw error;
}

/** The .mxl of a MusicXML document: a zip with the container file MusicXML 3 defines. */
export function mxlOf(xml: string): Uint8Array {
  const container = '<?xml version="1.0" encoding="UTF-8"?>\n<container><rootfiles><rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>\n';
  return zipSync({ mimetype: [strToU8('application/vnd.recordare.musicxml'), { level: 0 }], 'META-INF/container.xml': strToU8(container), 'score.xml': strToU8(xml) });
}

/**
 * Every export of a revision, produced once and cached on disk: the first request runs the job,
 * requests for the same file while it runs wait for that same job, and later ones get the cached
 * file. A job that fails is not kept: the next request starts again, except after an engraving
 * refused for a bound, whose refusal is answered at once. Engraving runs in the renderer's
 * processes and audio in child processes, SCORES_SYNTH_CONCURRENCY at a time, so the calling
 * thread only waits; audio goes from program to file to client without passing through memory.
 */
export class ScoreExporter {
  private readonly cache: ExportCache;
  private readonly renderer: NotationRenderer;
  private readonly audio: AudioSynthesizer;
  private readonly synth: JobLimiter;
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly refusals = new LRUCache<string, ExportOverLimit>({ max: REMEMBERED_REFUSALS });

  constructor(private readonly options: ScoreExporterOptions) {
    this.cache = new ExportCache(options.cache);
    this.renderer = options.renderer;
    this.audio = options.audio;
    this.synth = new JobLimiter(options.synthConcurrency, options.maxQueued, 'SCORES_EXPORT_MAX_QUEUED');
  }

  /** The export, from the cache or produced now; a producing failure in the API's error form. */
  async exportFile(source: ExportSource, format: ExportFormat, pages: PageChoice = DEFAULT_PAGE_CHOICE): Promise<ExportBody | ServiceError> {
    if (format === 'xml') return strToU8(await source.musicXml());
    try {
      return await this.fileOf(source, format, pages);
    } catch (error) {
      return asServiceError(error, format, source.revisionId);
    }
  }

  /** The bytes of a small export the API reads itself (synchronization points); a failure throws. */
  async export(source: ExportSource, format: ExportFormat): Promise<Uint8Array> {
    const body = await this.exportFile(source, format);
    if (body instanceof ServiceError) throw new Error(body.message);
    return body instanceof Uint8Array ? body : readFile(body.file);
  }

  /** The file when it was produced before (`onlyCached`). */
  cached(revisionId: string, format: FileFormat, variant = '', pages: PageChoice = DEFAULT_PAGE_CHOICE): Promise<ExportedFile | undefined> {
    return this.cache.file(revisionId, fileName(variant, format, pages));
  }

  /** How many pages the source engraves to (engraving it if it was not yet). */
  async pageCount(source: ExportSource): Promise<number> {
    return (await this.timing(source)).pageCount;
  }

  /** Drops the files of deleted revisions. */
  forget(revisionIds: readonly string[]): Promise<void> {
    return this.cache.remove(revisionIds);
  }

  private async fileOf(source: ExportSource, format: FileFormat, pages: PageChoice = DEFAULT_PAGE_CHOICE): Promise<ExportedFile> {
    const { revisionId, variant } = source;
    const name = fileName(variant, format, pages);
    const cached = () => this.cache.file(revisionId, name);
    // Looked for again inside the job: a job that finished between the first look and this one made it.
    return (await cached()) ?? this.once(revisionId, name, async () => (await cached()) ?? this.produce(source, format, pages));
  }

  /** One job per revision and product at a time; concurrent callers share it, and its files stay while it runs. */
  private once<T>(revisionId: string, product: string, job: () => Promise<T>): Promise<T> {
    const key = `${revisionId}/${product}`;
    const current = this.running.get(key) as Promise<T> | undefined;
    if (current !== undefined) return current;
    const started = (async () => {
      const release = await this.cache.hold(revisionId);
      try {
        return await job();
      } finally {
        release();
      }
    })().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  private async produce(source: ExportSource, format: FileFormat, pages: PageChoice): Promise<ExportedFile> {
    const { revisionId, ownerId } = source;
    const name = fileName(source.variant, format, pages);
    switch (format) {
      case 'mxl':
        return this.cache.write(revisionId, ownerId, name, mxlOf(await source.musicXml()));
      case 'json':
        return this.cache.write(revisionId, ownerId, name, await step('reading the MusicXML', async () => this.renderer.toJson(await source.musicXml())));
      case 'midi':
      case 'thumbnail.png':
        await this.engrave(source);
        return this.mustFind(source, name);
      case 'svg':
        await this.checkPage(source, pages.page);
        return this.mustFind(source, name);
      case 'png': {
        await this.checkPage(source, pages.page);
        const svg = await this.mustFind(source, fileName(source.variant, 'svg', pages));
        return this.produceFile(source, name, 'rasterising the page', (pngFile) => this.renderer.png(svg.file, pages.dpi, pngFile));
      }
      case 'pdf': {
        const { pageCount } = await this.timing(source);
        const svgFiles: string[] = [];
        for (let page = 1; page <= pageCount; page++) svgFiles.push((await this.mustFind(source, fileName(source.variant, 'svg', { ...pages, page }))).file);
        return this.produceFile(source, name, 'drawing the PDF', (pdfFile) => this.renderer.pdf(svgFiles, source.title ?? '', pdfFile));
      }
      case 'wav':
        return this.synthesise(source);
      case 'mp3': {
        const wav = await this.fileOf(source, 'wav');
        return this.synth.run(() => this.produceFile(source, name, 'encoding MP3', (mp3File) => this.audio.mp3(wav.file, mp3File)));
      }
      case 'synchronizationPoints': {
        const timing = await this.timing(source);
        return this.cache.write(revisionId, ownerId, name, JSON.stringify(synchronizationPoints(source.scoreId, timing.measureStartsMs, timing.endMs, timing.measureBoxes)));
      }
    }
  }

  /** A page past the last is the caller's mistake, found once the score is engraved. */
  private async checkPage(source: ExportSource, page: number): Promise<void> {
    const { pageCount } = await this.timing(source);
    if (page > pageCount) throw new PageOutOfRange(`page must be at most ${pageCount}, the number of pages of this score, not ${page}`);
  }

  /** The WAV, refused before FluidSynth starts when the music is longer than SCORES_MAX_AUDIO_DURATION. */
  private async synthesise(source: ExportSource): Promise<ExportedFile> {
    const timing = await this.timing(source);
    const { maxAudioMs } = this.options;
    if (timing.endMs > maxAudioMs) {
      throw new ExportOverLimit(`the music lasts ${Math.ceil(timing.endMs / 1000)} s, longer than SCORES_MAX_AUDIO_DURATION (${maxAudioMs / 1000} s)`);
    }
    const midi = await this.mustFind(source, fileName(source.variant, 'midi', DEFAULT_PAGE_CHOICE));
    return this.synth.run(() => this.produceFile(source, fileName(source.variant, 'wav', DEFAULT_PAGE_CHOICE), 'synthesising audio', (wavFile) => this.audio.wav(midi.file, timing.endMs / 1000, wavFile)));
  }

  /** A file a program writes: to a temporary name in the revision's folder, renamed into place once whole. */
  private async produceFile(source: ExportSource, name: string, what: string, make: (file: string) => Promise<void>): Promise<ExportedFile> {
    const temporary = await this.cache.temporary(source.revisionId, name);
    try {
      await step(what, () => make(temporary));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return this.cache.commit(source.revisionId, source.ownerId, temporary, name);
  }

  /** Engraving yields MIDI, the thumbnail, the pages and the timing at once; it runs once for all of them. */
  private engrave(source: ExportSource): Promise<void> {
    const { revisionId, ownerId, variant = '' } = source;
    const timingFile = variant + TIMING;
    const refused = this.refusals.get(revisionId + variant);
    if (refused !== undefined) return Promise.reject(refused);
    return this.once(revisionId, timingFile, async () => {
      // An engraving that finished since the caller looked for its timing has made every file.
      if ((await this.cache.file(revisionId, timingFile)) !== undefined) return;
      const musicXml = await source.musicXml();
      const render = await step('engraving', () => this.renderer.render(musicXml)).catch((error: unknown) => {
        if (error instanceof ExportOverLimit) this.refusals.set(revisionId + variant, error);
        throw error;
      });
      const timing: Timing = { measureStartsMs: render.measureStartsMs, endMs: render.endMs, pageCount: render.pagesSvg.length, measureBoxes: render.measureBoxes };
      await this.cache.write(revisionId, ownerId, variant + FILES.midi, render.midi);
      await this.cache.write(revisionId, ownerId, variant + FILES['thumbnail.png'], render.thumbnailPng);
      for (const [index, svg] of render.pagesSvg.entries()) await this.cache.write(revisionId, ownerId, variant + pageSvg(index + 1), svg);
      // Timing last: its presence says the engraving's files are all there.
      await this.cache.write(revisionId, ownerId, timingFile, JSON.stringify(timing));
    });
  }

  private async timing(source: ExportSource): Promise<Timing> {
    const timingFile = (source.variant ?? '') + TIMING;
    let bytes = await this.cache.read(source.revisionId, timingFile);
    if (bytes === undefined) {
      await this.engrave(source);
      bytes = await this.cache.read(source.revisionId, timingFile);
      if (bytes === undefined) throw new Error(`the engraving of revision ${source.revisionId} left no ${timingFile}`);
    }
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as Timing;
  }

  /** A file the engraving made; gone only if the cache removed it meanwhile, which its hold prevents. */
  private async mustFind(source: ExportSource, name: string): Promise<ExportedFile> {
    const file = await this.cache.file(source.revisionId, name);
    if (file === undefined) throw new Error(`the engraving of revision ${source.revisionId} left no ${name}`);
    return file;
  }
}
