import { strToU8, zipSync } from 'fflate';
import { AudioToolMissing, type AudioSynthesizer } from './audio-synthesizer.js';
import { ExportCache } from './export-cache.js';
import type { ExportFormat } from './formats.js';
import type { NotationRenderer } from './notation-renderer.js';
import { synchronizationPoints } from './sync-points.js';

/** The revision an export is made of; its MusicXML is read only when a file must be produced. */
export interface ExportSource {
  scoreId: string;
  revisionId: string;
  musicXml(): Promise<string>;
}

/** Cached file names; `timing.json` is the engraving's measure times, which audio and sync points need. */
const FILES: Readonly<Record<Exclude<ExportFormat, 'xml'>, string>> = {
  json: 'score.json',
  mxl: 'score.mxl',
  midi: 'score.mid',
  'thumbnail.png': 'thumbnail.png',
  wav: 'audio.wav',
  mp3: 'audio.mp3',
  synchronizationPoints: 'synchronizationPoints.json',
};
const TIMING = 'timing.json';

interface Timing {
  measureStartsMs: number[];
  endMs: number;
}

/** Engraving or synthesis failed on this revision: the message says why. */
export class ExportFailed extends Error {}

/** Runs a step of producing a file; its failure becomes an ExportFailed naming the step. */
async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AudioToolMissing) throw error;
    throw new ExportFailed(`${what}: ${(error as Error).message}`);
  }
}

/** The .mxl of a MusicXML document: a zip with the container file MusicXML 3 defines. */
export function mxlOf(xml: string): Uint8Array {
  const container = '<?xml version="1.0" encoding="UTF-8"?>\n<container><rootfiles><rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/></rootfiles></container>\n';
  return zipSync({ mimetype: [strToU8('application/vnd.recordare.musicxml'), { level: 0 }], 'META-INF/container.xml': strToU8(container), 'score.xml': strToU8(xml) });
}

/**
 * Every export of a revision, produced once and cached: the first request runs the job, requests
 * for the same file while it runs wait for that same job, and later ones read the cache.
 * Engraving runs on the renderer's worker threads and audio in child processes, so the calling
 * thread only waits.
 */
export class ScoreExporter {
  private readonly cache: ExportCache;
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    dir: string,
    private readonly renderer: NotationRenderer,
    private readonly audio: AudioSynthesizer,
  ) {
    this.cache = new ExportCache(dir);
  }

  /** The file, from the cache or produced now. */
  async export(source: ExportSource, format: ExportFormat): Promise<Uint8Array> {
    if (format === 'xml') return strToU8(await source.musicXml());
    const cached = await this.cached(source.revisionId, format);
    if (cached !== undefined) return cached;
    // Every waiter gets its own copy (`new Uint8Array(view)` copies; a Buffer's slice() would
    // not): whoever answers first hands its bytes to another thread, which detaches them.
    return new Uint8Array(await this.once(source.revisionId, format, () => this.produce(source, format)));
  }

  /** The file when it was produced before (`onlyCached`); xml is always there. */
  cached(revisionId: string, format: Exclude<ExportFormat, 'xml'>): Promise<Uint8Array | undefined> {
    return this.cache.read(revisionId, FILES[format]);
  }

  /** Drops the files of deleted revisions. */
  forget(revisionIds: readonly string[]): Promise<void> {
    return this.cache.remove(revisionIds);
  }

  /** One job per revision and product at a time; concurrent callers share it. */
  private once<T>(revisionId: string, product: string, job: () => Promise<T>): Promise<T> {
    const key = `${revisionId}/${product}`;
    const current = this.running.get(key) as Promise<T> | undefined;
    if (current !== undefined) return current;
    const started = job().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }

  private async produce(source: ExportSource, format: Exclude<ExportFormat, 'xml'>): Promise<Uint8Array> {
    const { revisionId } = source;
    switch (format) {
      case 'mxl':
        return this.store(revisionId, FILES.mxl, mxlOf(await source.musicXml()));
      case 'json':
        return this.store(revisionId, FILES.json, strToU8(await step('reading the MusicXML', async () => this.renderer.toJson(await source.musicXml()))));
      case 'midi':
      case 'thumbnail.png':
        await this.engrave(source);
        return this.mustRead(revisionId, FILES[format]);
      case 'wav': {
        const [midi, timing] = await Promise.all([this.export(source, 'midi'), this.timing(source)]);
        return this.store(revisionId, FILES.wav, await step('synthesising audio', () => this.audio.wav(midi, timing.endMs / 1000)));
      }
      case 'mp3':
        {
        const wav = await this.export(source, 'wav');
        return this.store(revisionId, FILES.mp3, await step('encoding MP3', () => this.audio.mp3(wav)));
      }
      case 'synchronizationPoints': {
        const timing = await this.timing(source);
        return this.store(revisionId, FILES.synchronizationPoints, strToU8(JSON.stringify(synchronizationPoints(source.scoreId, timing.measureStartsMs, timing.endMs))));
      }
    }
  }

  /** Engraving yields MIDI, the thumbnail and the timing at once; it runs once for all three. */
  private engrave(source: ExportSource): Promise<void> {
    return this.once(source.revisionId, 'engraving', async () => {
      const musicXml = await source.musicXml();
      const render = await step('engraving', () => this.renderer.render(musicXml));
      const timing: Timing = { measureStartsMs: render.measureStartsMs, endMs: render.endMs };
      // Timing last: its presence says the engraving's files are all there.
      await this.cache.write(source.revisionId, FILES.midi, render.midi);
      await this.cache.write(source.revisionId, FILES['thumbnail.png'], render.thumbnailPng);
      await this.cache.write(source.revisionId, TIMING, JSON.stringify(timing));
    });
  }

  private async timing(source: ExportSource): Promise<Timing> {
    let bytes = await this.cache.read(source.revisionId, TIMING);
    if (bytes === undefined) {
      await this.engrave(source);
      bytes = await this.mustRead(source.revisionId, TIMING);
    }
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as Timing;
  }

  private async store(revisionId: string, name: string, bytes: Uint8Array): Promise<Uint8Array> {
    await this.cache.write(revisionId, name, bytes);
    return bytes;
  }

  private async mustRead(revisionId: string, name: string): Promise<Uint8Array> {
    const bytes = await this.cache.read(revisionId, name);
    if (bytes === undefined) throw new Error(`the engraving of revision ${revisionId} left no ${name}`);
    return bytes;
  }
}
