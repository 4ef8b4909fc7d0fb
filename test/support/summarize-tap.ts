/**
 * Reads a TAP stream on stdin (run-test-files.ts's, or tap's `-R tap`) and prints, per test file,
 * one line when all of it passed (`ok   dist/test/e2e/x.test.js  42 passed  3.1 s`) and its whole TAP output
 * when anything in it failed; then the failed points again, and the line CI reads:
 * `N passed, N failed` (tap's own summary is not in a form CI recognises). With
 * TEST_OUTPUT=full, every line is echoed as it comes.
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

const echoAll = process.env['TEST_OUTPUT'] === 'full';
const root = new Parser();
watch(root);

/** The lines of the test file running now; printed only if it fails. */
let fileLines: string[] = [];
let passedBefore = 0;
root.on('line', (line: string) => {
  if (!echoAll) fileLines.push(line);
});
// A top-level point is a whole test file (each file is a subtest of the run).
root.on('assert', (result: Result) => {
  if (echoAll) return;
  const passed = tally.passed - passedBefore;
  passedBefore = tally.passed;
  if (result.ok) {
    const seconds = typeof result.time === 'number' ? `  ${(result.time / 1000).toFixed(1)} s` : '';
    process.stdout.write(`ok   ${result.name}  ${passed} passed${seconds}\n`);
  } else {
    process.stdout.write(fileLines.join(''));
  }
  fileLines = [];
});

process.stdin.on('data', (chunk: Buffer) => {
  if (echoAll) process.stdout.write(chunk);
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
