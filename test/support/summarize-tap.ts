/**
 * Reads a TAP stream on stdin (tap's `-R tap` output), echoes it, and ends with the line CI
 * reads: `N passed, N failed`. tap's own summary is not in a form CI recognises.
 *
 * Counted are leaf assertions. A subtest's closing point is not counted again, except when
 * it failed without any failing assertion inside (a crashed or timed-out test file).
 */
import { Parser, type Result } from 'tap-parser';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

const tally: Tally = { passed: 0, failed: 0, skipped: 0 };
/** Full names of the failed points, repeated at the end: CI keeps only the head and tail of a long log. */
const failures: string[] = [];

function recordFailure(result: Result): void {
  tally.failed++;
  failures.push(result.fullname || result.name);
}

function watch(parser: Parser): { failedInside: () => number } {
  let failedInside = 0;
  let pendingChild: { failedInside: () => number } | undefined;
  parser.on('child', (child: Parser) => {
    pendingChild = watch(child);
  });
  parser.on('assert', (result: Result) => {
    const closingChild = pendingChild;
    pendingChild = undefined;
    if (closingChild !== undefined) {
      const inner = closingChild.failedInside();
      failedInside += inner;
      if (!result.ok && inner === 0 && !result.todo && !result.skip) {
        recordFailure(result);
        failedInside++;
      }
      return;
    }
    if (result.skip || result.todo) tally.skipped++;
    else if (result.ok) tally.passed++;
    else {
      recordFailure(result);
      failedInside++;
    }
  });
  return { failedInside: () => failedInside };
}

const root = new Parser();
watch(root);
process.stdin.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  root.write(chunk);
});
process.stdin.on('end', () => {
  root.end();
  if (failures.length > 0) {
    process.stdout.write(`\nFailed:\n${failures.map((name) => `  - ${name}`).join('\n')}\n`);
  }
  const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : '';
  process.stdout.write(`\n${tally.passed} passed, ${tally.failed} failed${skipped}\n`);
  process.exitCode = tally.failed > 0 || tally.passed === 0 ? 1 : 0;
});
