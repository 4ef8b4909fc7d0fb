/** What this module needs of WebAssembly.Memory (the project's TypeScript libraries do not declare it). */
interface GrowableMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

const PAGE_BYTES = 65_536;

export interface WasmMemoryBudget {
  /** Growths refused so far: compare before and after a task to tell it ran out. */
  readonly refusals: number;
}

/**
 * Caps every WebAssembly memory of the calling thread at `maxBytes`. --max-old-space-size bounds
 * the JavaScript heap only; verovio's memory is WebAssembly's, which may grow to 2 GiB (a score
 * that repeats one measure 5000 times takes it there). A growth past the cap fails as if the
 * system had no more memory: the allocation inside verovio fails and its call throws.
 * For the render processes only: it changes WebAssembly.Memory for the whole thread.
 */
export function limitWebAssemblyMemory(maxBytes: number): WasmMemoryBudget {
  const memory = (globalThis as unknown as { WebAssembly: { Memory: { prototype: GrowableMemory } } }).WebAssembly.Memory.prototype;
  const grow = memory.grow;
  const budget = { refusals: 0 };
  memory.grow = function (this: GrowableMemory, pages: number): number {
    if (this.buffer.byteLength + pages * PAGE_BYTES > maxBytes) {
      budget.refusals++;
      throw new RangeError(`WebAssembly memory past ${maxBytes} bytes`);
    }
    return grow.call(this, pages);
  };
  return budget;
}
