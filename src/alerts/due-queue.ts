/**
 * Keys by the time they fall due, earliest first (a binary min-heap). A key may be pushed again
 * with a new time; the old entry stays until it surfaces, and whoever pops checks it against the
 * key's current time. `size` counts every entry, stale ones included, so the owner can rebuild
 * the queue when they outnumber the live keys.
 */
export class DueQueue {
  private times: number[] = [];
  private keys: string[] = [];

  get size(): number {
    return this.times.length;
  }

  push(key: string, due: number): void {
    this.times.push(due);
    this.keys.push(key);
    this.up(this.times.length - 1);
  }

  /** The earliest entry's time, or Infinity when empty. */
  peekTime(): number {
    return this.times[0] ?? Number.POSITIVE_INFINITY;
  }

  /** Removes and returns the earliest entry's key. */
  pop(): string | undefined {
    const key = this.keys[0];
    const lastTime = this.times.pop();
    const lastKey = this.keys.pop();
    if (this.times.length > 0 && lastTime !== undefined && lastKey !== undefined) {
      this.times[0] = lastTime;
      this.keys[0] = lastKey;
      this.down(0);
    }
    return key;
  }

  /** Replaces every entry by exactly these (key, time) pairs. */
  rebuild(entries: Iterable<[string, number]>): void {
    this.times = [];
    this.keys = [];
    for (const [key, due] of entries) {
      this.times.push(due);
      this.keys.push(key);
    }
    for (let i = (this.times.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.times[parent] as number) <= (this.times[i] as number)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.times.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && (this.times[left] as number) < (this.times[smallest] as number)) smallest = left;
      if (right < n && (this.times[right] as number) < (this.times[smallest] as number)) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b] as number, this.times[a] as number];
    [this.keys[a], this.keys[b]] = [this.keys[b] as string, this.keys[a] as string];
  }
}
