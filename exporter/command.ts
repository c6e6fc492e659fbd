/**
 * What the exporter's commands (`irm-export`, `irm-pending`) share: a failure stated in
 * words with its exit code, and reading the API token from `--token-file`.
 */
import * as fs from "node:fs";

/** A failure the user can act on: bad input or an API refusal, stated in words. */
export class CommandError extends Error {
  /** Exit code of the command: 2 for bad input, 1 for anything else. */
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/**
 * The token in `file` (`--token-file`), without surrounding white space. An unreadable
 * or empty file is bad input, thrown as the command's own error (`badInput`); the
 * message names the file, never its content.
 */
export function readTokenFile(file: string, badInput: (message: string) => CommandError): string {
  let token: string;
  try {
    token = fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    throw badInput(
      `--token-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  if (token === "") throw badInput(`--token-file: ${file} is empty`);
  return token;
}
