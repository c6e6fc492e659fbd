/**
 * Recording a partial run (`npm run bench -- --only <suites> --record`): which sections
 * it replaces in the figures of record, where the new ones go, what it refuses, and how
 * the page says that its sections come from different runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { recordPartialRun, runInfo, stampSections, withSectionRuns } from "../../bench/lib/record";
import {
  againstFloor,
  type BenchResults,
  type RunInfo,
  renderMarkdown,
  type Section,
} from "../../bench/lib/report";
import { SUITES, suiteOfSection } from "../../bench/suites/index";

const SUITE_ORDER = ["operations", "lifecycle", "sdk-listing", "emulator", "export"];
const LEGACY_IDS: Record<string, string> = {
  "requests-per-operation": "operations",
  "provider-overhead": "operations",
  "state-size": "operations",
  lifecycle: "lifecycle",
  "lifecycle-provider-share": "lifecycle",
  "sdk-listing": "sdk-listing",
  "emulator-latency": "emulator",
};
const options = {
  suiteOrder: SUITE_ORDER,
  suiteOf: (id: string) => LEGACY_IDS[id] ?? (SUITE_ORDER.includes(id) ? id : undefined),
};
const MACHINE = { node: "20", platform: "linux x64", cpus: 2, cpuModel: "cpu", memoryGiB: 24 };

function section(id: string, title: string, value = 1): Section {
  return {
    id,
    title,
    method: `How ${id} was measured.`,
    measurements: [againstFloor(`${id}-figure`, `${id} figure`, value, 1, "requests")],
    notes: [],
  };
}

/** The full run of an earlier commit, written before sections carried their run. */
function fullRun(): BenchResults {
  return {
    commit: "aaaaaaa000000000000000000000000000000000",
    shortCommit: "aaaaaaa",
    uncommitted: [],
    startedAt: "2026-11-22T16:00:00.000Z",
    durationSeconds: 3600,
    quick: false,
    machine: MACHINE,
    load: { start: [0.4, 0.5, 0.6], end: [1.5, 1.6, 1.7] },
    sections: [
      section("requests-per-operation", "1. Requests per operation", 5),
      section("provider-overhead", "2. Provider overhead"),
      section("state-size", "3. Size in state"),
      section("lifecycle", "4. Lifecycle"),
      section("lifecycle-provider-share", "4b. Provider share"),
      section("emulator-latency", "6a. Emulator latency"),
      section("export", "Exporting"),
    ],
  };
}

function partialInfo(only: string[], overrides: Partial<RunInfo> = {}): RunInfo {
  return {
    commit: "bbbbbbb000000000000000000000000000000000",
    shortCommit: "bbbbbbb",
    uncommitted: ["bench/suites/operations.ts"],
    startedAt: "2026-11-22T19:00:00.000Z",
    durationSeconds: 95,
    quick: false,
    machine: MACHINE,
    load: { start: [2.25, 2, 1.75], end: [3, 2.5, 2] },
    only,
    ...overrides,
  };
}

/** A `--only` run as `bench/run.ts` assembles it: sections stamped per suite. */
function partialRun(info: RunInfo, bySuite: Record<string, Section[]>): BenchResults {
  return {
    ...info,
    sections: Object.entries(bySuite).flatMap(([suite, sections]) =>
      stampSections(info, suite, sections),
    ),
  };
}

const ids = (results: BenchResults) => results.sections.map((s) => s.id);

describe("recording a partial run into the figures of record", () => {
  it("replaces the suite's sections where they were, keeps the others with the run that measured them", () => {
    const base = fullRun();
    const info = partialInfo(["operations"]);
    const recorded = partialRun(info, {
      operations: [
        section("requests-per-operation", "1. Requests per operation", 4),
        section("requests-per-resource", "1b. Requests per resource"),
        section("provider-overhead", "2. Provider overhead"),
        section("state-size", "3. Size in state"),
      ],
    });
    const merged = recordPartialRun(base, recorded, options);

    expect(ids(merged)).toEqual([
      "requests-per-operation",
      "requests-per-resource",
      "provider-overhead",
      "state-size",
      "lifecycle",
      "lifecycle-provider-share",
      "emulator-latency",
      "export",
    ]);
    // The file still describes the full run at the top.
    expect(runInfo(merged)).toEqual(runInfo(base));
    const byId = new Map(merged.sections.map((s) => [s.id, s]));
    expect(byId.get("requests-per-operation")?.measurements[0].value).toBe(4);
    expect(byId.get("requests-per-operation")?.run).toEqual({ ...info, suite: "operations" });
    // Untouched sections are stamped with the base's run and their suite.
    expect(byId.get("lifecycle")?.run).toEqual({ ...runInfo(base), suite: "lifecycle" });
    expect(byId.get("export")?.run?.suite).toBe("export");
    // The base object is not changed.
    expect(base.sections[0].measurements[0].value).toBe(5);
    expect(base.sections[0].run).toBeUndefined();
  });

  it("drops a suite's old sections that the new run no longer writes", () => {
    const recorded = partialRun(partialInfo(["lifecycle"]), {
      lifecycle: [section("lifecycle", "4. Lifecycle (skipped)")],
    });
    const merged = recordPartialRun(fullRun(), recorded, options);
    expect(ids(merged)).toEqual([
      "requests-per-operation",
      "provider-overhead",
      "state-size",
      "lifecycle",
      "emulator-latency",
      "export",
    ]);
    expect(merged.sections[3].title).toBe("4. Lifecycle (skipped)");
  });

  it("puts a suite the base lacks before the first section of a later suite, or last", () => {
    const base = fullRun();
    const listing = partialRun(partialInfo(["sdk-listing"]), {
      "sdk-listing": [section("sdk-listing", "5. SDK listing")],
    });
    expect(ids(recordPartialRun(base, listing, options))).toEqual([
      "requests-per-operation",
      "provider-overhead",
      "state-size",
      "lifecycle",
      "lifecycle-provider-share",
      "sdk-listing",
      "emulator-latency",
      "export",
    ]);
    const withoutLater = { ...base, sections: base.sections.slice(0, 3) };
    expect(ids(recordPartialRun(withoutLater, listing, options))).toEqual([
      "requests-per-operation",
      "provider-overhead",
      "state-size",
      "sdk-listing",
    ]);
  });

  it("a second record replaces the first by suite, and sections no suite claims stay put", () => {
    const base = fullRun();
    base.sections.splice(1, 0, section("hand-made", "Something no suite writes"));
    const first = recordPartialRun(
      base,
      partialRun(partialInfo(["operations", "emulator"]), {
        operations: [section("requests-per-operation", "1. first record")],
        emulator: [section("emulator-latency", "6a. first record")],
      }),
      options,
    );
    const laterInfo = partialInfo(["operations"], {
      startedAt: "2026-11-22T19:30:00.000Z",
      commit: "ccccccc000000000000000000000000000000000",
      shortCommit: "ccccccc",
    });
    const second = recordPartialRun(
      first,
      partialRun(laterInfo, {
        operations: [section("requests-by-kind", "1. second record, another id")],
      }),
      options,
    );
    expect(ids(second)).toEqual([
      "requests-by-kind",
      "hand-made",
      "lifecycle",
      "lifecycle-provider-share",
      "emulator-latency",
      "export",
    ]);
    expect(second.sections[0].run?.shortCommit).toBe("ccccccc");
    expect(second.sections[1].run?.suite).toBeUndefined();
    expect(second.sections[4].run?.shortCommit).toBe("bbbbbbb");
  });

  it("without earlier figures, the recorded run is the file", () => {
    const recorded = partialRun(partialInfo(["operations"]), {
      operations: [section("requests-per-operation", "1. Requests per operation")],
    });
    expect(recordPartialRun(undefined, recorded, options)).toBe(recorded);
  });

  it("refuses a quick run, a run of every suite, unknown suites and sections of no suite it ran", () => {
    const stamped = (info: RunInfo) =>
      partialRun(info, { operations: [section("requests-per-operation", "1.")] });
    expect(() =>
      recordPartialRun(fullRun(), stamped(partialInfo(["operations"], { quick: true })), options),
    ).toThrow(/quick run.*cannot be recorded/);
    expect(() =>
      recordPartialRun(
        fullRun(),
        stamped(partialInfo(["operations"], { only: undefined })),
        options,
      ),
    ).toThrow(/--only/);
    expect(() =>
      recordPartialRun(fullRun(), stamped(partialInfo(["operations", "nightly"])), options),
    ).toThrow("unknown suite(s) nightly");
    const info = partialInfo(["operations"]);
    const foreign = {
      ...info,
      sections: [...stamped(info).sections, section("sdk-listing", "5.")],
    };
    expect(() => recordPartialRun(fullRun(), foreign, options)).toThrow(
      "section(s) sdk-listing do not name a suite of the run",
    );
    expect(() =>
      recordPartialRun(
        { ...fullRun(), quick: true },
        stamped(partialInfo(["operations"])),
        options,
      ),
    ).toThrow(/quick run's/);
  });

  it("stamps an older file's sections with its own run", () => {
    const stamped = withSectionRuns(fullRun(), options.suiteOf);
    expect(stamped.sections.map((s) => s.run?.suite)).toEqual([
      "operations",
      "operations",
      "operations",
      "lifecycle",
      "lifecycle",
      "emulator",
      "export",
    ]);
    expect(new Set(stamped.sections.map((s) => s.run?.startedAt))).toEqual(
      new Set(["2026-11-22T16:00:00.000Z"]),
    );
  });
});

describe("the page of mixed runs", () => {
  const recorded = partialRun(partialInfo(["operations"]), {
    operations: [section("requests-per-operation", "1. Requests per operation", 4)],
  });

  it("names the run of each section measured apart, under its title only", () => {
    const page = renderMarkdown(recordPartialRun(fullRun(), recorded, options));
    expect(page).toContain("- Run: 2026-11-22 16:00:00 UTC, commit `aaaaaaa`, full run, 3600 s.");
    expect(page).toContain(
      "- Recorded later by `--only ... --record`: 1. Requests per operation. Each says under its title",
    );
    const runLine =
      "_Measured by another run than the one above: 2026-11-22 19:00:00 UTC, commit `bbbbbbb` plus " +
      "uncommitted changes to `bench/suites/operations.ts`, run of `operations` only (`--only`), 95 s; " +
      "load average (1, 5, 15 min; 2 CPU) 2.25, 2.00, 1.75 when it started, 3.00, 2.50, 2.00 when it ended._";
    expect(page).toContain(
      `## 1. Requests per operation\n\n${runLine}\n\nHow requests-per-operation was measured.`,
    );
    expect(page.split("_Measured by another run").length - 1).toBe(1);
    expect(page).toContain("## 4. Lifecycle\n\nHow lifecycle was measured.");
    // The base's own file keeps what the full run measured; latest.json holds the mix.
    expect(page).toContain(
      "The same figures are in\n`bench/results/latest.json` (`bench/results/aaaaaaa.json` keeps the run",
    );
  });

  it("says when the other run had another machine or no load figures", () => {
    const elsewhere = partialRun(
      partialInfo(["operations"], {
        machine: { ...MACHINE, cpus: 8, cpuModel: "other cpu" },
        load: undefined,
      }),
      { operations: [section("requests-per-operation", "1. Requests per operation")] },
    );
    const page = renderMarkdown(recordPartialRun(fullRun(), elsewhere, options));
    expect(page).toContain(
      "95 s; load average not recorded; machine: Node 20, linux x64, 8 CPU (other cpu), 24 GiB._",
    );
  });

  it("a page of one run says nothing of other runs, and a partial run names its suites", () => {
    const base = fullRun();
    const info = runInfo(base);
    const stampedFull = { ...info, sections: stampSections(info, "operations", base.sections) };
    for (const page of [renderMarkdown(base), renderMarkdown(stampedFull)]) {
      expect(page).not.toContain("Measured by another run");
      expect(page).not.toContain("Recorded later");
      expect(page).toContain("`bench/results/latest.json` and `bench/results/aaaaaaa.json`.");
    }
    const partialPage = renderMarkdown(recorded);
    expect(partialPage).toContain("run of `operations` only (`--only`), 95 s.");
    expect(partialPage).toContain("The same figures are in\n`bench/results/partial.json`.");
    expect(partialPage).not.toContain("Measured by another run");
  });
});

describe("the suites of older results", () => {
  it("every section of the committed results that names no suite is claimed by exactly one", () => {
    const dir = path.join(__dirname, "..", "..", "bench", "results");
    const files = fs
      .readdirSync(dir)
      .filter((file) => /^[0-9a-f]{7}\.json$|^latest\.json$/.test(file));
    expect(files).toContain("latest.json");
    for (const file of files) {
      const results = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as BenchResults;
      for (const { id } of results.sections.filter((section) => !section.run?.suite)) {
        const claimed = SUITES.filter((suite) => suiteOfSection(id, [suite]) !== undefined);
        expect({ file, id, suites: claimed.map((suite) => suite.name) }).toMatchObject({
          suites: [expect.any(String)],
        });
      }
    }
  });

  it("a suite claims the ids it declares, or its own name", () => {
    const suites = [
      { name: "operations", sectionIds: ["requests-per-operation"], run: async () => [] },
      { name: "export", run: async () => [] },
    ];
    expect(suiteOfSection("requests-per-operation", suites)).toBe("operations");
    expect(suiteOfSection("export", suites)).toBe("export");
    expect(suiteOfSection("state-size", suites)).toBeUndefined();
  });
});
