import { filesSignature } from '../../file-signature.js';
import { filesOf, loadWebConfig, type LoadedWebConfig } from './load.js';

export interface WebConfigWatcherOptions {
  file: string;
  pollIntervalMs: number;
  /** A changed file set that loads: the configuration to serve from now on. */
  onChange(loaded: LoadedWebConfig): void;
  /** A changed file set that does not load (the previous one keeps serving). */
  onRejected(message: string): void;
}

/**
 * The web configuration file and the files it names, re-read when any of them changes, as
 * exporter-toolkit re-reads them for each request and connection. Only a set that loads whole is
 * handed on: a certificate renamed into place before its key keeps the previous pair serving
 * until the key follows.
 */
export class WebConfigWatcher {
  private loaded: LoadedWebConfig;
  private signature: string;
  /** Why the files on disk do not load now; they are then tried at every poll, as they may name files still to come. */
  private rejected: string | undefined;
  private readonly timer: NodeJS.Timeout;

  /** Throws with the loader's message when the file does not load (startup must not go on). */
  constructor(private readonly options: WebConfigWatcherOptions) {
    const first = loadWebConfig(options.file);
    if (!first.ok) throw new Error(first.message);
    this.loaded = first.loaded;
    this.signature = this.currentSignature();
    this.timer = setInterval(() => this.poll(), options.pollIntervalMs);
    this.timer.unref();
  }

  get current(): LoadedWebConfig {
    return this.loaded;
  }

  private currentSignature(): string {
    return filesSignature(filesOf(this.options.file, this.loaded.config));
  }

  /** Looks for a change now (the timer does this every pollIntervalMs). */
  poll(): void {
    const signature = this.currentSignature();
    if (signature === this.signature && this.rejected === undefined) return;
    this.signature = signature;
    const next = loadWebConfig(this.options.file);
    if (!next.ok) {
      if (next.message !== this.rejected) this.options.onRejected(next.message);
      this.rejected = next.message;
      return;
    }
    this.rejected = undefined;
    this.loaded = next.loaded;
    // The new file may name other files: watch those from now on.
    this.signature = this.currentSignature();
    this.options.onChange(next.loaded);
  }

  close(): void {
    clearInterval(this.timer);
  }
}
