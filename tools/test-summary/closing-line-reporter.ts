import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the run's counts as one plain line, `vitest: N passed, N failed, N skipped`, after the
 * default reporter's coloured summary: that form is what CI tooling reads as a test runner's closing
 * line. The same line goes to .cache/test-summary.txt so .ci/run can repeat it as the very last
 * line once fuzzing and fault injection have passed too.
 */
const summaryFile = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), '.cache/test-summary.txt');

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    const line = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
    mkdirSync(dirname(summaryFile), { recursive: true });
    writeFileSync(summaryFile, `${line}\n`);
    console.log(`\nvitest: ${line}`);
  }
}
