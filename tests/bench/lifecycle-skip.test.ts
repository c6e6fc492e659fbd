/**
 * The lifecycle benchmark runs only on the real engine: without a Pulumi CLI it says so
 * in its section and on stderr, and starts nothing (no emulator, no small engine).
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("../../scripts/pulumi-cli/locate", () => ({ findPulumiCli: () => undefined }));
vi.mock("../../bench/lib/emulator-process", () => ({
  startEmulatorProcess: () => {
    throw new Error("the skipped suite must not start an emulator");
  },
}));

describe("lifecycle benchmark without a Pulumi CLI", () => {
  it("is skipped and says why, with no figure", async () => {
    // A worker runs many files (vitest.config.ts, isolate: false): load the suite anew so
    // that it sees the mocks above, whatever another file loaded before.
    vi.resetModules();
    const { lifecycleSuite } = await import("../../bench/suites/lifecycle.js");
    const log: string[] = [];
    const sections = await lifecycleSuite.run({
      quick: true,
      log: (message) => log.push(message),
      pick: (_full, quick) => quick,
    });
    expect(sections).toHaveLength(1);
    expect(sections[0].measurements).toEqual([]);
    expect(sections[0].method).toContain("Skipped in this run: no Pulumi CLI was found");
    expect(sections[0].method).toContain("does not fall back to the small in-repo engine");
    expect(log.join("\n")).toContain("no Pulumi CLI found");
  });
});
