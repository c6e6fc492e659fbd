/**
 * vitest file order for `npm test` (both tiers) and each tier on its own: the files that
 * drive the real engine (or another long chain of child processes) start first, the many short files fill in around
 * them. Two workers share the run, so a long file started last would run alone at the
 * end. Within each half, vitest's own order (its cache of past durations when it has
 * one, else the larger file first).
 */
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Files that spend their time in the real engine or a Go build, longest first. */
const LONG = [
  /^tests\/(engine|native)\//,
  /^tests\/export\/(demo-organisation-export|seeded)\.test\.ts$/,
  /^tests\/harness\/npm-run-demo\.test\.ts$/,
  /^tests\/contract\//,
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const isLong = (file: TestSpecification) => {
      const relative = path.relative(root, file.moduleId).split(path.sep).join("/");
      return LONG.some((pattern) => pattern.test(relative));
    };
    return [...sorted.filter(isLong), ...sorted.filter((file) => !isLong(file))];
  }
}
