import type { RateLimitConfig } from '../engine/index.js';
import { ServiceError } from '../errors/index.js';

/**
 * The configuration in service, published by the main thread to every other thread through
 * shared memory. A thread checks the generation word before each decision (one atomic load)
 * and reads the new configuration only when it changed, so a reload reaches every thread,
 * including piscina workers that sleep between tasks and never see a message.
 *
 *   word 0  generation   bumped after each publish; 0 = nothing published yet
 *   word 1  seq          odd while the main thread writes (a seqlock)
 *   word 2  length       bytes of JSON that follow the header
 *   byte 16…             the configuration as UTF-8 JSON
 */
const GENERATION = 0;
const SEQ = 1;
const LENGTH = 2;
const HEADER_BYTES = 16;

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

  /**
   * Main thread only. A configuration larger than the mailbox is refused (the one in service
   * stays); the caller counts it as a failed load.
   */
  publish(config: RateLimitConfig): ServiceError<'CFG_TOO_LARGE'> | undefined {
    const encoded = new TextEncoder().encode(JSON.stringify(config));
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
    Atomics.add(this.words, GENERATION, 1);
    return undefined;
  }

  /** The latest configuration if its generation differs from `known`; retries a torn read. */
  readIfNewer(known: number): { generation: number; config: RateLimitConfig } | undefined {
    for (;;) {
      const generation = Atomics.load(this.words, GENERATION);
      if (generation === known || generation === 0) return undefined;
      const seq = Atomics.load(this.words, SEQ);
      if (seq % 2 === 1) continue;
      const length = Atomics.load(this.words, LENGTH);
      const copy = this.bytes.slice(0, length);
      if (Atomics.load(this.words, SEQ) !== seq) continue;
      return { generation, config: JSON.parse(new TextDecoder().decode(copy)) as RateLimitConfig };
    }
  }
}
