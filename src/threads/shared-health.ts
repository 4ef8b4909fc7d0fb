const OVERALL = 0;
const STORE_CONNECTIONS = 1;

/**
 * Health shared by every thread: the main thread's overall verdict (1 healthy, 0 not), and the
 * number of key-value store connections that are up across all threads (each thread adds and
 * subtracts its own), which KVSTORE_HEALTH_CHECK_ACTIVE_CONNECTION turns into a health component.
 */
export class SharedHealth {
  private readonly words: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(8)) {
    this.words = new Int32Array(buffer);
  }

  set(healthy: boolean): void {
    Atomics.store(this.words, OVERALL, healthy ? 1 : 0);
  }

  isHealthy(): boolean {
    return Atomics.load(this.words, OVERALL) === 1;
  }

  addStoreConnections(delta: number): void {
    Atomics.add(this.words, STORE_CONNECTIONS, delta);
  }

  storeConnections(): number {
    return Atomics.load(this.words, STORE_CONNECTIONS);
  }
}
