// The parts of verovio's WebAssembly toolkit (https://book.verovio.org/toolkit-reference/)
// this service uses; the package ships no type declarations.
declare module 'verovio/wasm' {
  /** Instantiates the WebAssembly module (about 100 ms); one per thread is enough. */
  export default function createVerovioModule(): Promise<unknown>;
}

declare module 'verovio/esm' {
  export class VerovioToolkit {
    constructor(module: unknown);
    setOptions(options: Record<string, unknown>): void;
    /** False when the data cannot be read; getLog() says why. */
    loadData(data: string): boolean;
    getLog(): string;
    getPageCount(): number;
    renderToSVG(page: number): string;
    /** The MIDI file, base64-encoded. */
    renderToMIDI(): string;
    renderToTimemap(options?: Record<string, unknown>): VerovioTimemapEntry[];
  }

  export interface VerovioTimemapEntry {
    /** Milliseconds from the start of the music. */
    tstamp: number;
    qstamp: number;
    on?: string[];
    off?: string[];
    restsOn?: string[];
    restsOff?: string[];
    /** Set on the entry where a measure starts: its element id. */
    measureOn?: string;
    tempo?: number;
  }
}
