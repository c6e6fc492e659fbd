/**
 * `IRM_ENGINE_STEP_LOG=<file>`: one JSON line per engine command (the test file, stack,
 * command, flags, milliseconds) appended to that file, for every way the tests run the
 * CLI (Automation API stacks, the native tests' direct CLI calls, the Python driver):
 * what a test file's time is made of, countable before and after a change.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The test file running in this worker, as vitest names it (absent outside vitest). */
function testFile(): string | undefined {
  const worker = (globalThis as { __vitest_worker__?: { filepath?: string } }).__vitest_worker__;
  return worker?.filepath ? path.relative(process.cwd(), worker.filepath) : undefined;
}

export function logEngineStep(stack: string, kind: string, flags: string[], ms: number): void {
  const file = process.env.IRM_ENGINE_STEP_LOG;
  if (!file) return;
  fs.appendFileSync(file, `${JSON.stringify({ file: testFile(), stack, kind, flags, ms })}\n`);
}
