/** Edits a test program's source the way a user edits theirs between two runs. */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Replaces `before` in `<dir>/<main>` (`index.ts` by default) with `after` (taken
 * literally, no `$` patterns). `before` must occur exactly once, so a scenario cannot
 * silently edit nothing.
 */
export function editProgram(
  dir: string,
  before: string | RegExp,
  after: string,
  main = "index.ts",
): void {
  const file = path.join(dir, main);
  const source = fs.readFileSync(file, "utf8");
  const pattern =
    typeof before === "string"
      ? new RegExp(before.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g")
      : new RegExp(before.source, before.flags.includes("g") ? before.flags : `${before.flags}g`);
  const matches = source.match(pattern)?.length ?? 0;
  if (matches !== 1) {
    throw new Error(`editProgram: expected one match of ${pattern}, found ${matches}`);
  }
  fs.writeFileSync(
    file,
    source.replace(pattern, () => after),
  );
}
