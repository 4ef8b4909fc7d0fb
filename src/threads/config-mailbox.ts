import { ServiceError } from '../errors/index.js';

/**
 * The configuration in service, published by the rules loader thread to every other thread
 * through shared memory. A thread checks the generation word before each decision (one atomic
 * load) and reads the new configuration only when it changed, so a reload reaches every thread,
 * including piscina workers that sleep between tasks and never see a message.
 *
 *   word 0  generation   bumped after each publish; 0 = nothing published yet
 *   word 1  seq          odd while the writer writes (a seqlock)
 *   word 2  length       bytes of text that follow the header
 *   byte 16…             the configuration as UTF-8 segment lines (config-segments.ts)
 */
const GENERATION = 0;
const SEQ = 1;
const LENGTH = 2;
const HEADER_BYTES = 16;

export type MailboxRead = { generation: number; text: string } | 'unchanged' | 'busy';

export class ConfigMailbox {
  private readonly words: Int32Array;
  private readonly bytes: Uint8Array;

  private constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.bytes = new Uint8Array(buffer, HEADER_BYTES);
  }

  /** Reserves `maxBytes` of address space; pages become resident only as configurations fill them. */
  static create(maxBytes: number): ConfigMailbox {
    return new ConfigMailbox(new SharedArrayBuffer(HEADER_BYTES + maxBytes));
  }

  static attach(buffer: SharedArrayBuffer): ConfigMailbox {
    return new ConfigMailbox(buffer);
  }

  get generation(): number {
    return Atomics.load(this.words, GENERATION);
  }

  /** Room for a configuration, in bytes (CONFIG_MAX_BYTES). */
  get capacity(): number {
    return this.bytes.length;
  }

  /**
   * One writer only (the rules loader). A configuration larger than the mailbox is refused (the
   * one in service stays); the caller counts it as a failed load. Returns the new generation.
   */
  publish(encoded: Uint8Array): number | ServiceError<'CFG_TOO_LARGE'> {
    if (encoded.length > this.bytes.length) {
      return new ServiceError(
        'CFG_TOO_LARGE',
        `configuration is ${encoded.length} bytes as JSON, more than CONFIG_MAX_BYTES (${this.bytes.length})`,
      );
    }
    Atomics.add(this.words, SEQ, 1);
    this.bytes.set(encoded);
    Atomics.store(this.words, LENGTH, encoded.length);
    Atomics.add(this.words, SEQ, 1);
    return Atomics.add(this.words, GENERATION, 1) + 1;
  }

  /**
   * The latest configuration if its generation differs from `known`. 'busy' when the writer is
   * writing it right now or wrote it while it was copied: the caller tries again later rather
   * than waiting here, which would stall a thread that answers decisions.
   */
  readIfNewer(known: number): MailboxRead {
    const generation = Atomics.load(this.words, GENERATION);
    if (generation === known || generation === 0) return 'unchanged';
    const seq = Atomics.load(this.words, SEQ);
    if (seq % 2 === 1) return 'busy';
    const length = Atomics.load(this.words, LENGTH);
    const copy = this.bytes.slice(0, length);
    if (Atomics.load(this.words, SEQ) !== seq || Atomics.load(this.words, GENERATION) !== generation) return 'busy';
    return { generation, text: new TextDecoder().decode(copy) };
  }
}
