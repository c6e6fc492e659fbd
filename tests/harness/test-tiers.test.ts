/**
 * The two tiers of vitest.config.ts (tests/README.md): every test file is in exactly
 * one, and no file of the fast tier reaches for the engine. The engine entry points
 * also refuse at run time in the fast tier (tests/support/engine-stack.ts); this check
 * names every offending file at once, before any of them runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../harness/installed-package";
import config, { ENGINE_TIER } from "../../vitest.config";
import { requireEngineTier } from "../support/engine-stack";

/** What only a file that deploys calls: the engine's entry points of tests/support and harness/. */
const ENGINE_ENTRY_POINTS =
  /\b(describeOnEngine|createEngineStack|hasRealEngine|createRealEngineStack|createLayoutBase)\b|inject\("realEngine"\)/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return testFiles(relative);
    return entry.name.endsWith(".test.ts") ? [relative] : [];
  });
}

/** The folders of the engine tier (`tests/engine/**` gives `tests/engine/`). */
const engineFolders = ENGINE_TIER.map((glob) => glob.replace(/\*\*\/\*\.test\.ts$/, ""));
const inEngineTier = (file: string) => engineFolders.some((folder) => file.startsWith(folder));
/** The slow reliability suite has its own configuration (vitest.reliability.config.ts). */
const inReliabilitySlow = (file: string) => file.startsWith("tests/reliability/slow/");

describe("the test tiers", () => {
  it("are the two projects of vitest.config.ts, the engine tier chosen by folder", () => {
    const projects = (config.test?.projects ?? []) as Array<{
      test: { name: string; include: string[]; exclude?: string[] };
    }>;
    expect(projects.map((p) => p.test.name)).toEqual(["fast", "engine"]);
    const [fast, engine] = projects;
    expect(engine.test.include).toEqual(ENGINE_TIER);
    for (const glob of ENGINE_TIER) expect(fast.test.exclude).toContain(glob);
    expect(engineFolders.every((folder) => folder.endsWith("/"))).toBe(true);
  });

  it("no file of the fast tier calls the engine's entry points", () => {
    const self = path.relative(REPO_ROOT, __filename).split(path.sep).join("/");
    const fast = testFiles("tests").filter(
      (f) => !inEngineTier(f) && !inReliabilitySlow(f) && f !== self,
    );
    expect(fast.length).toBeGreaterThan(100);
    const offending = fast.filter((file) =>
      ENGINE_ENTRY_POINTS.test(fs.readFileSync(path.join(REPO_ROOT, file), "utf8")),
    );
    expect(offending, "move them under tests/engine/ (tests/README.md)").toEqual([]);
  });

  it("this file runs in the fast tier, where the engine entry points refuse to run", () => {
    expect(inject("tier")).toBe("fast");
    expect(() => requireEngineTier()).toThrow(
      "this file runs in the fast tier, which has no Pulumi engine: a test that deploys belongs under tests/engine/ (tests/README.md)",
    );
  });
});
