/**
 * The benchmark's arithmetic and its page: medians, the linear fit used for growth,
 * floors and ratios, and the markdown that `npm run bench` writes. (The benchmarks
 * themselves never run under `npm test`.)
 */
import { describe, expect, it } from "vitest";
import { againstFloor, type BenchResults, renderMarkdown } from "../../bench/lib/report";
import { linearFit, median, quantile } from "../../bench/lib/stats";

describe("statistics", () => {
  it("median of odd and even counts, ignoring input order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow();
  });

  it("quantile by nearest rank", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(quantile(samples, 0.99)).toBe(99);
    expect(quantile(samples, 0.5)).toBe(50);
    expect(quantile([7], 0.99)).toBe(7);
  });

  it("linear fit recovers a line exactly and scores a curve lower", () => {
    const line = linearFit([1, 2, 3, 4].map((x) => ({ x, y: 3 * x + 2 })));
    expect(line.slope).toBeCloseTo(3, 10);
    expect(line.intercept).toBeCloseTo(2, 10);
    expect(line.r2).toBeCloseTo(1, 10);
    const curve = linearFit([1, 2, 3, 4, 5, 6].map((x) => ({ x, y: x ** 4 })));
    expect(curve.r2).toBeLessThan(0.95);
  });
});

describe("floors and the page", () => {
  it("a figure at its floor meets it, one above does not, a zero floor needs zero", () => {
    expect(againstFloor("a", "A", 50, 50, "requests")).toMatchObject({ ratio: 1, met: true });
    expect(againstFloor("b", "B", 51, 50, "requests")).toMatchObject({ ratio: 1.02, met: false });
    expect(againstFloor("c", "C", 0, 0, "requests")).toMatchObject({ ratio: 1, met: true });
    expect(againstFloor("d", "D", 2, 0, "requests")).toMatchObject({ met: false });
  });

  it("renders the run, the misses in the summary, and one table row per figure", () => {
    const results: BenchResults = {
      commit: "0123456789abcdef",
      shortCommit: "0123456",
      uncommitted: [],
      startedAt: "2026-11-22T01:00:00.000Z",
      durationSeconds: 300,
      quick: false,
      machine: { node: "20", platform: "linux x64", cpus: 2, cpuModel: "cpu", memoryGiB: 24 },
      sections: [
        {
          id: "s",
          title: "1. Section",
          method: "How it was measured.",
          measurements: [
            againstFloor("ok", "at the floor", 4, 4, "requests"),
            againstFloor("miss", "a | piped label", 3, 2, "sockets"),
            { id: "info", label: "information only", value: 1234.5678, unit: "ms" },
          ],
          notes: ["Why the miss cannot be helped."],
        },
      ],
    };
    const page = renderMarkdown(results);
    expect(page).toContain("commit `0123456`, full run");
    expect(page).toContain("1 of 2 figures with a floor or goal meet it");
    expect(page).toContain("- 1. Section: a | piped label — 3 sockets (ratio 1.5), goal ratio 1.0");
    expect(page).toContain(
      "| a \\| piped label | 3 sockets | 2 sockets | 1.5 | ratio 1.0 | **no** |",
    );
    expect(page).toContain("| information only | 1,234.6 ms |");
    expect(page).toContain("- Why the miss cannot be helped.");
    expect(page).not.toContain("uncommitted");
    expect(page).not.toContain("Load average");
    const loaded = renderMarkdown({ ...results, load: { start: [1.5, 2, 3], end: [0.25, 1, 2] } });
    expect(loaded).toContain(
      "- Load average (1, 5, 15 min; 2 CPU): 1.50, 2.00, 3.00 when the run started, 0.25, 1.00, 2.00 when it ended",
    );
  });
});
