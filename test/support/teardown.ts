/**
 * What the helpers need from a tap test: somewhere to register clean-up. Benchmarks, which
 * have no tap test, pass a `Teardowns` and run it themselves.
 */
export interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Clean-up functions run last registered first, as tap runs a test's teardowns. */
export class Teardowns implements Teardown {
  private readonly fns: Array<() => unknown> = [];

  teardown(fn: () => unknown): void {
    this.fns.push(fn);
  }

  /**
   * Runs and forgets every registered function, one at a time; a failure does not stop the
   * rest (a process left running would outlive the benchmark), and the first one is rethrown.
   */
  async run(): Promise<void> {
    const errors: unknown[] = [];
    for (let fn = this.fns.pop(); fn !== undefined; fn = this.fns.pop()) {
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
