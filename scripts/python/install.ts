/** `npm run python:venv`: see venv.ts. Prints the environment's folder on the last line. */
import { ensurePythonVenv } from "./venv";

try {
  const started = Date.now();
  const venv = ensurePythonVenv((message) => process.stderr.write(`python:venv: ${message}\n`));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`python:venv: ${venv.built ? "built" : "cached"} in ${seconds} s\n`);
  process.stdout.write(`${venv.dir}\n`);
} catch (error) {
  process.stderr.write(`python:venv: ${(error as Error).message}\n`);
  process.exit(1);
}
