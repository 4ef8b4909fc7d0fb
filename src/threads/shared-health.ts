/** The main thread's overall health, readable by every thread (one Int32: 1 healthy, 0 not). */
export class SharedHealth {
  private readonly word: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.word = new Int32Array(buffer);
  }

  set(healthy: boolean): void {
    Atomics.store(this.word, 0, healthy ? 1 : 0);
  }

  isHealthy(): boolean {
    return Atomics.load(this.word, 0) === 1;
  }
}
