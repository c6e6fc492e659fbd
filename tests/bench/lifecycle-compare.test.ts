/**
 * The lifecycle suite's comparison with the small engine's recorded figures
 * (`bench/results/64e4809.json`): rows only where both runs have the size, ratios of
 * medians, least-squares lines through both, and request counts said to change only
 * when they did.
 */
import { describe, expect, it } from "vitest";
import {
  againstSmallEngine,
  emptySize,
  type SizeResults,
  smallEngineFigures,
} from "../../bench/suites/lifecycle";

function fakeResults(sizes: number[], msPerResource: number): Map<number, SizeResults> {
  const results = new Map<number, SizeResults>();
  for (const size of sizes) {
    const entry = emptySize();
    for (const op of ["up", "noop", "destroy"] as const) {
      entry.irm[op].ms.push(2_000 + size * msPerResource);
    }
    results.set(size, entry);
  }
  return results;
}

describe("real engine against the small engine's figures", () => {
  const small = smallEngineFigures();

  it("reads the small engine's lifecycle figures of 64e4809", () => {
    expect(small?.shortCommit).toBe("64e4809");
    expect(small?.byId.get("up-1000-ms")?.value).toBeCloseTo(7, 2);
  });

  it("sets each size's median over the recorded one and fits both lines", () => {
    const sizes = [100, 550, 1_000];
    const section = againstSmallEngine(small!, sizes, fakeResults(sizes, 10), [
      { id: "up-1000-requests", label: "", value: 1_001, unit: "requests", detail: "roles GET×1" },
      { id: "destroy-1000-requests", label: "", value: 1_000, unit: "requests" },
    ]);
    const row = (id: string) => section.measurements.find((m) => m.id === id);
    // 2 s + 1,000 × 10 ms = 12 s against the recorded 7.00 s.
    const recorded = small!.byId.get("up-1000-ms")!.value;
    expect(row("up-1000-real-over-small")?.value).toBeCloseTo(12 / recorded, 6);
    expect(row("up-slope-real-and-small")?.value).toBeCloseTo(10, 6);
    expect(row("up-fixed-real-and-small")?.value).toBeCloseTo(2, 6);
    expect(row("up-linearity-real-and-small")?.value).toBeCloseTo(1, 6);
    expect(section.notes.join("\n")).toContain("up of 1000: 1000 on the small engine, 1001 now");
    expect(section.notes.join("\n")).not.toContain("destroy of 1000:");
  });

  it("with other sizes, compares only the lines, each fitted over its own run's sizes", () => {
    const sizes = [10, 40, 70];
    const section = againstSmallEngine(small!, sizes, fakeResults(sizes, 10), []);
    expect(section.measurements.some((m) => m.id.endsWith("-real-over-small"))).toBe(false);
    const slope = section.measurements.find((m) => m.id === "up-slope-real-and-small");
    expect(slope?.value).toBeCloseTo(10, 6);
    expect(slope?.detail).toContain(
      "fitted over each run's own sizes (real 10, 40, 70; small 100, 550, 1000)",
    );
  });
});
