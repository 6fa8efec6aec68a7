// Prints the final "N passed, N failed" line from vitest's JSON report.
import { existsSync, readFileSync } from 'node:fs';

const [file, status] = process.argv.slice(2);
if (!existsSync(file)) {
  // The typecheck (or vitest itself) failed before any test ran.
  console.log('0 passed, 1 failed');
} else {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const failed = r.numFailedTests + (status !== '0' && r.numFailedTests === 0 ? 1 : 0);
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`${r.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}
